// What lies within a screen of the view, and whether what is drawn still serves it. Only what lies
// within a screen of the view is in the SVG (markers.mjs), so a frame lays out and paints hundreds of
// markers, not ten thousand; and while a drag, pinch or wheel moves the view, the markers as drawn
// are moved and scaled (camera.mjs, pictureTransform) until they no longer serve. Pure: points and
// sizes, no page; node tests it (Tests/Browser/js/in-view.test.mjs).
//
// Points are {x, y} in map units; a camera {x, y, unit}; a size the element's {w, h} in pixels.

/** Half the width and height, in map units, of what is drawn around the view's centre: a screen's
 *  margin on every side, so a drag draws again only every half screen; while a zoom is under way
 *  (`narrow`), a quarter of a screen, and the rest once it pauses. */
export function drawnReach(size, unit, narrow) {
  const f = narrow ? 0.75 : 1.5;
  return { w: size.w * unit * f, h: size.h * unit * f };
}

/** Whether `p` lies within `reach` ({w, h}, half extents) of the centre `c`. */
export function within(p, c, reach) {
  return Math.abs(p.x - c.x) <= reach.w && Math.abs(p.y - c.y) <= reach.h;
}

/** Whether `p` lies in the view `v` ({x, y, width, height}, map units). */
export function inView(p, v) {
  return p.x >= v.x && p.x <= v.x + v.width && p.y >= v.y && p.y <= v.y + v.height;
}

/** Whether what was drawn around `near` ({x, y, narrow}, or null: nothing yet) must be drawn again for
 *  the camera: the view has gone more than half a screen from it (a quarter, if that drawing was
 *  narrowed for a zoom), or a narrowed drawing is to be widened. */
export function redrawDue(near, cam, size, narrow) {
  if (!near || near.narrow && !narrow) return true;
  const out = near.narrow ? 0.25 : 0.5;
  return Math.abs(cam.x - near.x) > size.w * cam.unit * out || Math.abs(cam.y - near.y) > size.h * cam.unit * out;
}

/** Whether the markers drawn for the camera `placed` ({x, y, unit, w, h}) may stand for the view of
 *  `cam` while it moves, moved and scaled: the same screen, within half a screen of where they were
 *  drawn, at most twice or half their size, and no pan over a drawing narrowed for a zoom
 *  (`narrow`), which would uncover what it left out. */
export function pictureHolds(placed, cam, size, narrow) {
  if (!placed || placed.w !== size.w || placed.h !== size.h) return false;
  const u = cam.unit, s = placed.unit / u;
  return s >= 0.5 && s <= 2 && (s !== 1 || !narrow) &&
    Math.abs(cam.x - placed.x) <= size.w * u / 2 && Math.abs(cam.y - placed.y) <= size.h * u / 2;
}

/** Of `items`, the one whose point (`pointOf(item)`) is nearest `c`, or null. */
export function nearestTo(items, c, pointOf) {
  let best = null, d = Infinity;
  for (const item of items) {
    const p = pointOf(item), e = Math.hypot(p.x - c.x, p.y - c.y);
    if (e < d) {
      d = e;
      best = item;
    }
  }
  return best;
}

/** Of `items`, the next from `from` in an arrow key's direction (`key`: "ArrowLeft", …), or null: the
 *  nearest at least a pixel ahead, a pixel to the side counting twice a pixel ahead. `unit`: map units
 *  per pixel. */
export function nextThatWay(from, items, key, unit, pointOf) {
  const ux = key === "ArrowLeft" ? -1 : key === "ArrowRight" ? 1 : 0, uy = key === "ArrowUp" ? -1 : key === "ArrowDown" ? 1 : 0;
  const p = pointOf(from);
  let best = null, score = Infinity;
  for (const item of items) {
    if (item === from) continue;
    const q = pointOf(item), dx = (q.x - p.x) / unit, dy = (q.y - p.y) / unit;
    const ahead = dx * ux + dy * uy, aside = Math.abs(dx * uy - dy * ux);
    if (ahead < 1) continue;
    if (ahead + 2 * aside < score) {
      score = ahead + 2 * aside;
      best = item;
    }
  }
  return best;
}
