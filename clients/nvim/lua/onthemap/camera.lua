-- Where an editor map looks: a centre and a zoom, read from the `view` the daemon drew ({west,
-- south, east, north, zoom}, Web Mercator) and moved by the map's keys, as `onthemap map -i` moves
-- its own (Sources/OnTheMapCLI/Interactive/MapCamera.swift). Pure computation.
local M = {}

--- The daemon's zoom range (`map`'s `zoom` param).
M.min_zoom, M.max_zoom = 1, 4096

local limit = 85.0511287798066

local function y_of(latitude)
  local clipped = math.rad(math.max(-limit, math.min(limit, latitude)))
  return (1 - math.log(math.tan(math.pi / 4 + clipped / 2)) / math.pi) / 2
end

local function latitude_of(y)
  local t = math.pi * (1 - 2 * y)
  return math.deg(math.atan((math.exp(t) - math.exp(-t)) / 2))
end

--- The camera of a `map` result's `view`, or nil when it has none.
function M.from_view(view)
  if type(view) ~= "table" or not (view.west and view.east and view.north and view.south and view.zoom) then
    return nil
  end
  local longitude = (view.west + view.east) / 2
  if longitude >= 180 then
    longitude = longitude - 360
  end
  return { latitude = latitude_of((y_of(view.north) + y_of(view.south)) / 2), longitude = longitude, zoom = view.zoom }
end

--- The camera moved by `dx`, `dy` quarters of a view `width`×`height` cells (east and south
--- positive).
function M.pan(camera, dx, dy, width, height)
  local longitude = camera.longitude + dx * 90 / camera.zoom
  longitude = longitude - 360 * math.floor((longitude + 180) / 360)
  local span_y = 2 * height / (width * camera.zoom)
  local latitude = latitude_of(y_of(camera.latitude) + dy * span_y / 4)
  return { latitude = math.max(-85, math.min(85, latitude)), longitude = longitude, zoom = camera.zoom }
end

--- The camera zoomed by `factor`, within the daemon's range.
function M.zoom(camera, factor)
  local zoom = math.max(M.min_zoom, math.min(M.max_zoom, camera.zoom * factor))
  return { latitude = camera.latitude, longitude = camera.longitude, zoom = zoom }
end

--- `map` params showing `camera`.
function M.params(camera)
  return { center = { latitude = camera.latitude, longitude = camera.longitude }, zoom = camera.zoom }
end

--- "18", "2.5": a zoom as the title line shows it.
function M.zoom_text(zoom)
  if zoom >= 10 then
    return tostring(math.floor(zoom + 0.5))
  end
  return (("%.1f"):format(zoom):gsub("%.0$", ""))
end

--- "48.86°N 2.35°E": a centre in words.
function M.where(camera)
  return ("%.2f°%s %.2f°%s"):format(
    math.abs(camera.latitude),
    camera.latitude < 0 and "S" or "N",
    math.abs(camera.longitude),
    camera.longitude < 0 and "W" or "E"
  )
end

return M
