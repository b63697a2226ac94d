// Web Mercator in map units (0…65535 across the world), as the server's and the terminal's maps
// place things (Sources/OnTheMapMap/Mercator.swift). Pure: node tests it.

export const WORLD = 65535;
const MAX_LATITUDE = 85.0511287798066;

/** x of a longitude. */
export function mapX(longitude) {
  return (longitude + 180) / 360 * WORLD;
}

/** y of a latitude (north up: 0 at 85°N), clipped where Web Mercator stops. */
export function mapY(latitude) {
  const c = Math.min(Math.max(latitude, -MAX_LATITUDE), MAX_LATITUDE) * Math.PI / 180;
  return (1 - Math.log(Math.tan(Math.PI / 4 + c / 2)) / Math.PI) / 2 * WORLD;
}
