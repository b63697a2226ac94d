// The map's camera: a centre and a scale (map units per screen pixel). What is shown is derived from
// it and the element's size, so the view always fills the element (no letterboxing) and never shows
// past the edges of the world. The first view covers the element with a band of latitudes and slides
// to where most pins are; zooming out stops at the whole world's width. Pure: numbers in, numbers
// out; node tests it (Tests/Browser/js/camera.test.mjs).
//
// A camera is {x, y, unit}: its centre in map units (0…65535 across the world, Web Mercator) and the
// map units one pixel shows. A size is the element's {w, h} in pixels.

import { WORLD } from "./mercator.mjs";

/** How far past the world's edges a drag reaches, in pixels: a marker at the antimeridian comes whole
 *  onto the screen. */
export const EDGE = 32;

/** `v` kept within lo…hi, or their middle when there is no room between them (a view wider than what
 *  may be shown stays centred). */
export function between(v, lo, hi) {
  return lo > hi ? (lo + hi) / 2 : Math.min(Math.max(v, lo), hi);
}

/** Units per pixel: from a view 500 units wide to the whole world's width. On a screen taller than
 *  wide, the whole width shows the world's square with sea above and below: a phone held upright
 *  stopped at the square's height, a third of the world's width, and "whole world" showed no more. */
export function zoomRange(size) {
  return [500 / size.w, WORLD / size.w];
}

/** Keeps `cam` within the zoom's range and its view within the world, `EDGE` pixels past its sides;
 *  changes `cam` and returns it. */
export function clampCamera(cam, size) {
  const r = zoomRange(size);
  const u = cam.unit = between(cam.unit, r[0], r[1]), hw = size.w * u / 2, hh = size.h * u / 2, m = EDGE * u;
  cam.x = between(cam.x, hw - m, WORLD + m - hw);
  cam.y = between(cam.y, hh, WORLD - hh);
  return cam;
}

/** What the camera shows, in map units: its top left corner and its size (an SVG viewBox). */
export function viewOf(cam, size) {
  return { x: cam.x - size.w * cam.unit / 2, y: cam.y - size.h * cam.unit / 2, width: size.w * cam.unit, height: size.h * cam.unit };
}

/** The map point at (sx, sy) pixels from the element's top left corner. */
export function mapPoint(cam, size, sx, sy) {
  return { x: cam.x + (sx - size.w / 2) * cam.unit, y: cam.y + (sy - size.h / 2) * cam.unit };
}

/** Where a map point is on the screen, in pixels from the element's top left corner. */
export function screenPoint(cam, size, p) {
  return { x: (p.x - cam.x) / cam.unit + size.w / 2, y: (p.y - cam.y) / cam.unit + size.h / 2 };
}

/** The centre that shows the map point `at` at (sx, sy) on the screen, at `unit`: a pinch keeps the
 *  point between the fingers under them. */
export function centreKeeping(at, sx, sy, unit, size) {
  return { x: at.x - (sx - size.w / 2) * unit, y: at.y - (sy - size.h / 2) * unit };
}

/** Zooms `cam` in by f (out when below 1), within the zoom's range, keeping the map point `at` where it
 *  is on the screen; changes `cam`. */
export function zoomCamera(cam, size, f, at) {
  const u = cam.unit, r = zoomRange(size), next = between(u / f, r[0], r[1]);
  cam.x = at.x - (at.x - cam.x) * next / u;
  cam.y = at.y - (at.y - cam.y) * next / u;
  cam.unit = next;
  return cam;
}

/** The centre of the window of `span` that holds the most of `values`, kept within lo…hi. */
export function densest(values, span, lo, hi) {
  if (span >= hi - lo || !values.length) return (lo + hi) / 2;
  // A typed array sorts numbers without calling a comparison (ten thousand at a login).
  const v = Float64Array.from(values).sort();
  let best = 0, at = 0, j = 0;
  for (let i = 0; i < v.length; i++) {
    while (j < v.length && v[j] <= v[i] + span) j++;
    if (j - i > best) {
      best = j - i;
      at = (v[i] + v[j - 1]) / 2;
    }
  }
  return between(at, lo + span / 2, hi - span / 2);
}

/** The first view's scale, in map units per pixel: the band `top`…`bottom` (map units) across the
 *  screen, or the world's width if that is less, as close as the map goes at most. No marker decides
 *  it, so the first view's zoom level is known before where the view goes (map-view.mjs, setMarkers). */
export function firstUnit(size, band) {
  return Math.max(Math.min(WORLD / size.w, (band.bottom - band.top) / size.h), zoomRange(size)[0]);
}

/** The first view of `markers` ({at, mine}): at `firstUnit`, slid to where the most markers are, with
 *  your own whole on the screen, a cluster's width from its edge (at 390 pixels the window with the most
 *  pins could cut it off at the left). */
export function firstView(markers, size, band) {
  const u = firstUnit(size, band);
  const cam = {
    x: densest(markers.map((m) => m.at.x), size.w * u, -EDGE * u, WORLD + EDGE * u),
    y: densest(markers.map((m) => m.at.y), size.h * u, band.top, band.bottom),
    unit: u,
  };
  const mine = markers.find((m) => m.mine), margin = 40 * u;
  if (mine) {
    cam.x = between(cam.x, mine.at.x - size.w * u / 2 + margin, mine.at.x + size.w * u / 2 - margin);
    cam.y = between(cam.y, mine.at.y - size.h * u / 2 + margin, mine.at.y + size.h * u / 2 - margin);
  }
  return cam;
}

/** The camera nearest `cam` that cuts no disc in two: each of `discs` ({x, y}: its point in map units;
 *  r: its radius in pixels) whole on the screen and clear of every box of `controls` (the map's own
 *  buttons over it, {left, top, right, bottom} in pixels from the element's top left corner), or
 *  wholly off the screen. At 390 pixels the view with the most pins cut Western Europe's cluster to a
 *  sliver at the left edge and put Perth's under the zoom buttons. Tried: pans of up to an eighth of
 *  the screen each way, at each scale of `units` (the camera's and a little further out), the least
 *  move first; where none clears them all, the one that cuts the fewest. `keep` (yours, or null) stays
 *  whole on the screen. The camera returned is a new one, within the world (`clampCamera`). */
export function clearView(cam, size, discs, controls, units = [cam.unit], keep = null) {
  const { w, h } = size, far = Math.max(...units) / cam.unit;
  // How far a move goes at most, in pixels of the camera's scale: an eighth of the screen, and what
  // the scale furthest out brings in at the edges.
  const rx = w / 8 + w / 2 * (far - 1), ry = h / 8 + h / 2 * (far - 1);
  // Only the discs such a move can bring to an edge or a button (a world's clusters are hundreds, and
  // each place tried is tried against each disc): the others stay as they are, whole or off.
  const near = (a0, a1, b0, b1) => a0 < b1 && b0 < a1;
  discs = discs.filter((d) => {
    if (d === keep) return true;
    const sx = (d.x - cam.x) / cam.unit + w / 2, sy = (d.y - cam.y) / cam.unit + h / 2, x0 = sx - d.r - rx, x1 = sx + d.r + rx;
    const y0 = sy - d.r - ry, y1 = sy + d.r + ry;
    if (x1 < 0 || x0 > w || y1 < 0 || y0 > h) return false;
    return x0 < 0 || x1 > w || y0 < 0 || y1 > h || controls.some((b) => near(x0, x1, b.left, b.right) && near(y0, y1, b.top, b.bottom));
  });
  // How many discs the view cuts (yours off the screen or cut counts as more than all of them).
  function cuts(c) {
    let n = 0;
    for (const d of discs) {
      const sx = (d.x - c.x) / c.unit + w / 2, sy = (d.y - c.y) / c.unit + h / 2, r = d.r;
      const off = sx + r <= 0 || sx - r >= w || sy + r <= 0 || sy - r >= h;
      const whole = sx - r >= 0 && sx + r <= w && sy - r >= 0 && sy + r <= h &&
        !controls.some((b) => sx + r > b.left && sx - r < b.right && sy + r > b.top && sy - r < b.bottom);
      if (d === keep ? !whole : !whole && !off) n += d === keep ? discs.length + 1 : 1;
    }
    return n;
  }
  // The centres (x or y, map units) at which a disc comes just whole or just off at an edge or a
  // button: where the count of discs cut can change.
  function stops(axis, c, u) {
    const half = (axis === "x" ? w : h) / 2, reach = (axis === "x" ? rx : ry) * cam.unit, out = [c[axis]];
    const lo = axis === "x" ? "left" : "top", hi = axis === "x" ? "right" : "bottom";
    const edges = [0, 2 * half, ...controls.flatMap((b) => [b[lo], b[hi]])];
    for (const d of discs) {
      const p = d[axis], r = d.r + 1;
      for (const edge of edges) {
        for (const v of [p - (edge - half - r) * u, p - (edge - half + r) * u]) {
          if (Math.abs(v - cam[axis]) <= reach) out.push(v);
        }
      }
    }
    return out;
  }
  const moved = (c) => Math.abs(c.x - cam.x) / (w * cam.unit) + Math.abs(c.y - cam.y) / (h * cam.unit) + (c.unit - cam.unit) / cam.unit;
  let best = null;
  for (const u of units) {
    const c = clampCamera({ x: cam.x, y: cam.y, unit: u }, size);
    let n = cuts(c);
    // Each axis in turn: the best place across, then down, then across again.
    for (const axis of ["x", "y", "x"]) {
      if (!n) break;
      let pick = null;
      for (const v of stops(axis, c, u)) {
        const t = clampCamera({ x: c.x, y: c.y, unit: u, [axis]: v }, size), k = cuts(t), m = moved(t);
        if (!pick || k < pick.n || (k === pick.n && m < pick.moved)) pick = { n: k, moved: m, cam: t };
      }
      c.x = pick.cam.x;
      c.y = pick.cam.y;
      n = pick.n;
    }
    if (!best || n < best.n || (n === best.n && moved(c) < best.moved)) best = { n, moved: moved(c), cam: c };
    if (!n) break;
  }
  return best.cam;
}

/** The whole world's width across the screen (the "whole world" button), the band `top`…`bottom`
 *  (map units) in the middle of its height where the screen shows less than the world's height. */
export function worldView(size, band) {
  return clampCamera({ x: WORLD / 2, y: (band.top + band.bottom) / 2, unit: WORLD / size.w }, size);
}

/** The camera that shows every point of `points` (at least one), a margin inside the screen's edges
 *  (up to 80 pixels); as close as the map goes once clamped. */
export function fitView(points, size) {
  const xs = points.map((p) => p.x), ys = points.map((p) => p.y), margin = Math.min(80, size.w / 4, size.h / 4);
  const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
  return {
    x: (x0 + x1) / 2,
    y: (y0 + y1) / 2,
    unit: Math.max((x1 - x0) / Math.max(size.w - 2 * margin, 1), (y1 - y0) / Math.max(size.h - 2 * margin, 1)),
  };
}

/** The CSS transform (from the element's top left corner) that shows a picture drawn for the camera
 *  `drawn` as `cam` would draw it: while the view moves, the compositor moves and scales what is drawn
 *  rather than the browser drawing it again. */
export function pictureTransform(drawn, cam, size) {
  const u = cam.unit, s = drawn.unit / u;
  return "translate(" + ((drawn.x - cam.x) / u + (1 - s) * size.w / 2) + "px," + ((drawn.y - cam.y) / u + (1 - s) * size.h / 2) + "px)" +
    (s === 1 ? "" : " scale(" + s + ")");
}
