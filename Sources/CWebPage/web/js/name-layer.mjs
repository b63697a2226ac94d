// The map's names, drawn under the pins: names.mjs lays them out for the view in pixels, around the
// markers and clusters on the screen; this draws them. They are laid out again once the view rests,
// or the markers drawn change, in a task of its own (a few milliseconds), and while the view moves
// they only follow the zoom.

import { layoutNames } from "./names.mjs";
import { pointOf, radiusOf, SVG_NS } from "./markers.mjs";

/** The names' layer of the map `map` (map-view.mjs). */
export function nameLayer(map) {
  const layer = document.createElementNS(SVG_NS, "g");
  // The names' data once given (`set`), whether a layout is due, and how wide a name is drawn.
  let names = null, due = false, measureText = null;
  layer.setAttribute("id", "names");
  layer.setAttribute("aria-hidden", "true");
  map.o.layer.before(layer);

  /** The names to show (MapLabels.webJSON's data). */
  function set(data) {
    names = data;
    soon();
  }
  /** Keeps the names their size on the screen at `unit` map units per pixel. */
  function scaleTo(unit) {
    for (const t of layer.children) t.setAttribute("transform", "translate(" + t.at.x + " " + t.at.y + ") scale(" + unit + ")");
  }
  /** Lays the names out again soon. */
  function soon() {
    if (!names || due) return;
    due = true;
    setTimeout(draw, 0);
  }
  /* For where the markers are drawn, once the view rests. */
  function draw() {
    const placed = map.placed, size = map.size;
    due = false;
    if (!names || !placed || map.input.gesture() || map.svg.style.transform) return;
    if (!measureText) measureText = textMeasure();
    const u = placed.unit, v = { x: placed.x - size.w * u / 2, y: placed.y - size.h * u / 2, unit: u, w: size.w, h: size.h };
    const obstacles = [];
    for (const el of map.drawing.reachable()) {
      const p = pointOf(el), r = radiusOf(el) + 4;
      const sx = (p.x - v.x) / u, sy = (p.y - v.y) / u;
      obstacles.push({ left: sx - r, right: sx + r, top: sy - r, bottom: sy + r });
    }
    // Nor under the map's own controls drawn over it (the zoom buttons).
    const frame = map.svg.parentNode.getBoundingClientRect();
    for (const c of map.svg.parentNode.querySelectorAll(".zoom")) {
      const r = c.getBoundingClientRect();
      if (r.width) obstacles.push({ left: r.left - frame.left, right: r.right - frame.left, top: r.top - frame.top, bottom: r.bottom - frame.top });
    }
    const frag = document.createDocumentFragment();
    for (const n of layoutNames(names, v, obstacles, measureText)) {
      const t = document.createElementNS(SVG_NS, "text");
      t.setAttribute("class", "name " + n.kind);
      t.setAttribute("text-anchor", n.anchor);
      if (n.dx) t.setAttribute("x", n.dx);
      if (n.dy) t.setAttribute("y", n.dy);
      t.setAttribute("transform", "translate(" + n.x + " " + n.y + ") scale(" + u + ")");
      t.at = { x: n.x, y: n.y };
      t.textContent = n.text;
      frag.appendChild(t);
      if (n.kind === "place" && n.dx) {
        // Beside its point, a place's name has a dot at the point.
        const dot = document.createElementNS(SVG_NS, "circle");
        dot.setAttribute("class", "name-dot");
        dot.setAttribute("r", "2");
        dot.setAttribute("transform", t.getAttribute("transform"));
        dot.at = t.at;
        frag.appendChild(dot);
      }
    }
    layer.replaceChildren(frag);
  }
  /* A name's width in pixels, from the fonts the style sheet gives the names, read once: with its
     capitals and letter spacing (a canvas measures neither, and a country's name was laid out a
     fifth narrower than drawn). */
  function textMeasure() {
    const context = document.createElement("canvas").getContext("2d"), fonts = {};
    for (const kind of ["country", "place"]) {
      const probe = document.createElementNS(SVG_NS, "text");
      probe.setAttribute("class", "name " + kind);
      layer.appendChild(probe);
      const style = getComputedStyle(probe);
      fonts[kind] = { font: style.font, upper: style.textTransform === "uppercase", spacing: parseFloat(style.letterSpacing) || 0 };
      probe.remove();
    }
    return (text, kind) => {
      const f = fonts[kind];
      context.font = f.font;
      return context.measureText(f.upper ? text.toUpperCase() : text).width + f.spacing * text.length;
    };
  }
  return { set, scaleTo, soon };
}
