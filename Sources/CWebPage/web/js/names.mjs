// Which names a map in the browser shows, and where: the terminal map's rule (Sources/OnTheMapMap/
// LabelLayout.swift) on the same data (labels.bin, served as JSON: MapLabels.webJSON), laid out in
// pixels. Pure (no page): node tests it (Tests/Browser/js/names.test.mjs); name-layer.mjs draws it.
//
// How much is named follows the scale, as on a printed map and in the terminal: the scale is how many
// times wider the world is drawn than on an 80-column terminal, taken here as 640 pixels (a
// terminal cell is about 8 pixels wide). Countries are placed first, most prominent first, each
// centred on its label point (a large one's also a line above or below it; else its short name,
// else none); then places, most populous first, centred on their point, else beside it (right,
// then left, clear of a pin or cluster on it, with a dot at the point and the dot's other side kept
// free of names); a place whose point is under a name
// already placed is not named, and a name goes only where it covers no pin, no cluster and no other
// name, within the screen.

import { WORLD } from "./mercator.mjs";

/** Pixels across the world on an 80-column terminal map: what the rule's scale 1 is. */
export const TERMINAL_WORLD_PIXELS = 640;

/** The countries' highest rank and places' least population named at `scale`, by the data's rule. */
export function ruleAt(rule, scale) {
  let i = 0;
  while (i < rule.scales.length && scale >= rule.scales[i]) i++;
  return { rank: rule.ranks[i], population: rule.populations[i] };
}

/** The scale of a view `unit` map units per pixel. */
export function scaleOf(unit) {
  return WORLD / unit / TERMINAL_WORLD_PIXELS;
}

function overlaps(a, b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** The names for a view, each {text, kind ("country" or "place"), x, y (its point, map units),
 *  anchor ("middle", "start" or "end"), dx, dy (pixels from the point to the anchor)}.
 *
 *  `view`: {x, y (the top left, map units), unit (map units a pixel), w, h (pixels)};
 *  `obstacles`: boxes in screen pixels ({left, top, right, bottom}) no name may cover (pins, clusters);
 *  `width(text, kind)`: a name's width in pixels; `height`: a line's, for both kinds. */
export function layoutNames(data, view, obstacles, width, height = 16) {
  const { rank, population } = ruleAt(data.rule, scaleOf(view.unit));
  const taken = obstacles.slice(), placed = [], named = [];
  const screen = (px, py) => ({ sx: (px - view.x) / view.unit, sy: (py - view.y) / view.unit });
  function fits(box) {
    if (box.left < 2 || box.top < 2 || box.right > view.w - 2 || box.bottom > view.h - 2) return false;
    for (const t of taken) if (overlaps(box, t)) return false;
    return true;
  }
  function boxAt(sx, sy, w, anchor, dx) {
    const left = anchor === "middle" ? sx - w / 2 : anchor === "start" ? sx + dx : sx + dx - w;
    // A cell apart at each end, as the terminal keeps a free cell: 4 pixels.
    return { left: left - 4, right: left + w + 4, top: sy - height / 2, bottom: sy + height / 2 };
  }
  // How far the pins and clusters on a point reach from it each way, in pixels.
  function clearance(sx, sy) {
    const c = { left: 0, right: 0, up: 0, down: 0 };
    for (const t of obstacles) {
      if (sx < t.left || sx > t.right || sy < t.top || sy > t.bottom) continue;
      c.left = Math.max(c.left, sx - t.left);
      c.right = Math.max(c.right, t.right - sx);
      c.up = Math.max(c.up, sy - t.top);
      c.down = Math.max(c.down, t.bottom - sy);
    }
    return c;
  }
  for (const [x, y, r, name, short, extent] of data.countries) {
    if (r > rank) continue;
    // Not a country too small to see at this scale, as the terminal names none under a cell.
    if (extent !== undefined && extent / view.unit < (data.rule.countryPixels || 0)) continue;
    const { sx, sy } = screen(x, y);
    if (sx < 0 || sy < 0 || sx > view.w || sy > view.h) continue;
    // A country drawn large may have its name a line above or below its point, as the terminal's
    // three rows tall or more may have it a row away: a cluster of its students drawn at their middle
    // covered the point, and "Australia" went unnamed.
    const clear = clearance(sx, sy);
    const lines = extent !== undefined && extent / view.unit >= data.rule.largeCountryPixels
      ? [0, -Math.max(height, clear.up + height / 2), Math.max(height, clear.down + height / 2)] : [0];
    placing: for (const text of [name, short]) {
      if (!text) continue;
      for (const dy of lines) {
        const box = boxAt(sx, sy + dy, width(text, "country"), "middle", 0);
        if (!fits(box)) continue;
        taken.push(box);
        named.push(box);
        placed.push({ text, kind: "country", x, y, anchor: "middle", dx: 0, dy });
        break placing;
      }
    }
  }
  for (const [x, y, people, name] of data.places) {
    // Places come most populous first.
    if (people < population) break;
    const { sx, sy } = screen(x, y);
    if (sx < 0 || sy < 0 || sx > view.w || sy > view.h) continue;
    // A point under a name already placed (a city's neighbour at this scale): its name beside that
    // one would read as naming the wrong place.
    if (named.some((b) => sx >= b.left && sx <= b.right && sy >= b.top && sy <= b.bottom)) continue;
    // Beside its point, clear of a pin or cluster on it (students pin their city: the largest
    // places are where the pins are), as the terminal writes "*7 Lyon" after a pin and its number.
    const clear = clearance(sx, sy), w = width(name, "place");
    for (const [anchor, dx] of [["middle", 0], ["start", Math.max(14, clear.right + 4)], ["end", -Math.max(14, clear.left + 4)]]) {
      const box = boxAt(sx, sy, w, anchor, dx);
      if (!fits(box)) continue;
      // Beside its point, the name has a dot there (name-layer.mjs), and the dot's other side is kept
      // free of names twice as far, before and after: "Ankara • Kırıkkale", a neighbour's name just
      // past the dot, read as if the dot were the neighbour's.
      if (anchor === "start") box.left = sx - 2 * dx;
      if (anchor === "end") box.right = sx - 2 * dx;
      if (anchor !== "middle" && named.some((b) => overlaps(box, b))) continue;
      taken.push(box);
      named.push(box);
      placed.push({ text: name, kind: "place", x, y, anchor, dx, dy: 0 });
      break;
    }
  }
  return placed;
}
