// The markers and clusters in the map's SVG. Markers are SVG groups of class `marker`, each placed by
// `translate(x y) scale(s)` in map units (students.mjs: what they hold), in the layer the server or
// the export drew (`o.layer`); a group of markers within reach (grouping.mjs) is drawn as one cluster
// with the number of students in it, in a layer of its own above them, and the counts in a layer
// above every disc, so a neighbour's disc never hides a count. Markers keep their size on screen.
//
// Only what lies within a screen of the view is in the SVG (in-view.mjs); markers not drawn (in a
// cluster, filtered out, or far off screen) wait in a hidden `<div>` outside it: in the page (a search
// or a test finds them), but the browser makes no box for an SVG element there, where in a hidden
// group of the SVG it laid out and walked all ten thousand every frame.

import { between, zoomRange } from "./camera.mjs";
import { centreOf, clusterRadius, zoomCanSplit, zoomLevel } from "./clusters.mjs";
import { whenIdle } from "./grouping.mjs";
import { drawnReach, inView, within } from "./in-view.mjs";
import { countOf, markSearch, sharedPlace, shownStudents } from "./students.mjs";

export const SVG_NS = "http://www.w3.org/2000/svg";

/** Readies a marker given to the map: its point, `at` ({x, y}), if it brings none, from its
 *  `translate(x y)`; what a search left of it (`filtered`, `mine`); not yet grouped; drawn if it is
 *  in the markers' layer, `layer` (none: a new marker, not yet in the page). */
export function readMarker(m, layer) {
  if (!m.at) {
    const t = /translate\(\s*([-\d.e]+)[\s,]+([-\d.e]+)/.exec(m.getAttribute("transform"));
    m.at = { x: +t[1], y: +t[2] };
  }
  m.scaled = 0;
  m.filtered = m.classList.contains("hidden");
  m.mine = m.classList.contains("mine");
  m.cluster = null;
  m.head = null;
  m.students = null;
  m.count = null;
  m.drawn = !!layer && m.parentNode === layer;
  m.marked = true;
  m.fresh = false;
}

/** A marker's or cluster's point, in map units. */
export function pointOf(el) {
  return el.members ? el.centre : el.at;
}

/** A marker's or cluster's radius in pixels, read once. */
export function radiusOf(el) {
  return el.radius || (el.radius = +el.querySelector("circle").getAttribute("r") || 5);
}

/** The markers' and clusters' layers of the map `map` (map-view.mjs), and their drawing. */
export function markerDrawing(map) {
  const o = map.o, layer = document.createElementNS(SVG_NS, "g"), counts = document.createElementNS(SVG_NS, "g");
  const stash = document.createElement("div"), clusters = [];
  // How many times markers were given to be put in the page (`stashFrom`): a newer list ends the older's.
  let stashing = 0;
  layer.setAttribute("id", "clusters");
  o.layer.after(layer);
  counts.setAttribute("id", "counts");
  layer.after(counts);
  stash.hidden = true;
  map.svg.after(stash);

  /** Takes the markers to show, `list`: those it had before stay where they are (drawn or not, the
   *  focus on one kept), those written anew since (`fresh`) or new are read again, and the others
   *  go. A new one waits outside the SVG until it is drawn, put there a slice at a time (`stashFrom`). */
  function take(list) {
    // None before (a login): ten thousand markers put in a set for nothing were 1.5–3.5 ms of the task.
    if (map.markers.length) {
      const keep = new Set(list);
      for (const m of map.markers) {
        if (!keep.has(m)) {
          m.remove();
          m.drawn = false;
        }
      }
    }
    for (const m of list) if (m.fresh !== false) readMarker(m, o.layer);
    map.heads = [];
    stashFrom(list, 0);
  }
  /* Puts the markers of `list` not yet in the page into the hidden `<div>`, from the `i`th on, in
     slices of up to 4 ms, the first at once and the others in idle time, as a search's classes are
     written (map-view.mjs, markFrom): a hundred at once, ten thousand between frames (all at once,
     the ten thousand of a login were 40–100 ms of the task that gave them to the map). A marker drawn
     meanwhile is in the SVG; a newer list starts again. */
  function stashFrom(list, i, deadline) {
    const run = ++stashing, until = performance.now() + between(deadline ? deadline.timeRemaining() : 4, 1, 4);
    while (i < list.length && (i & 63 || performance.now() < until)) {
      const m = list[i++];
      if (!m.parentNode) stash.appendChild(m);
    }
    if (i < list.length) whenIdle((next) => { if (run === stashing) stashFrom(list, i, next); });
  }
  /** Draws the markers as the groups `heads` of a new zoom level (grouping.mjs). */
  function group(heads, narrow) {
    for (const c of clusters) c.head = null;
    map.heads = heads;
    for (const m of map.markers) {
      m.cluster = null;
      m.head = null;
    }
    for (const hd of heads) {
      hd.el = null;
      for (const m of hd.members) m.head = hd;
    }
    draw(narrow);
  }

  /** Draws what is within a screen of the view where the markers are placed (`map.placed`; in-view.mjs,
   *  drawnReach; `narrow`: a zoom under way): the markers alone, each at its size, yours on top, and
   *  the clusters; the one an open list follows is drawn wherever it is. A cluster's element is kept
   *  while it stays in reach, and an attribute is written only when it changes. */
  function draw(narrow) {
    const follow = map.focus.following(), placed = map.placed, anchor = map.popup.anchor;
    const u = placed.unit, reach = drawnReach(map.size, u, narrow), mine = [], keep = anchor && anchor.head, free = [], want = [];
    const near = map.near = { x: placed.x, y: placed.y, narrow: !!narrow };
    for (const m of map.markers) {
      const hd = m.head;
      const on = !!hd && hd.members.length === 1 && (hd === keep || within(m.at, near, reach));
      if (m.drawn !== on) {
        (on ? o.layer : stash).appendChild(m);
        m.drawn = on;
      }
      if (!on) continue;
      markSearch(m);
      if (m.scaled !== u) {
        m.setAttribute("transform", "translate(" + m.at.x + " " + m.at.y + ") scale(" + u + ")");
        m.scaled = u;
      }
      if (m.mine) mine.push(m);
    }
    // Yours on top; moved only when it is not (a move takes the focus off it).
    for (const m of mine) if (m.nextSibling) o.layer.appendChild(m);
    for (const c of clusters) if (!c.head) free.push(c);
    for (const hd of map.heads) {
      if (hd.members.length < 2) continue;
      const at = centreOf(hd, countOf), on = hd === keep || within(at, near, reach);
      if (on && !hd.el) want.push(hd);
      else if (!on && hd.el) {
        hd.el.head = null;
        free.push(hd.el);
        hd.el = null;
        setCluster(hd, null);
      }
    }
    for (const hd of want) cluster(hd, free.pop());
    for (const c of free) {
      c.members = [];
      c.remove();
      c.label.remove();
    }
    for (const hd of map.heads) {
      if (hd.el && hd.el.scaled !== u) {
        const t = "translate(" + hd.centre.x + " " + hd.centre.y + ") scale(" + u + ")";
        hd.el.setAttribute("transform", t);
        hd.el.label.setAttribute("transform", t);
        hd.el.scaled = u;
      }
    }
    map.focus.rove(follow);
    if (!narrow) map.names.soon();
  }
  /* The markers in a cluster point to its element while it is drawn (`m.cluster`). */
  function setCluster(hd, c) {
    for (const m of hd.members) m.cluster = c;
  }
  /* Draws a group as a cluster in `c` (an element no longer used, or a new one): a disc, and its count
     in the layer above every disc. The disc grows with the count's digits. */
  function cluster(hd, c) {
    if (!c) {
      const hit = document.createElementNS(SVG_NS, "circle");
      c = document.createElementNS(SVG_NS, "g");
      // The disc, and a touch screen's larger target around it (map.css).
      hit.setAttribute("class", "hit");
      hit.setAttribute("r", "0");
      c.append(document.createElementNS(SVG_NS, "circle"), hit);
      c.label = document.createElementNS(SVG_NS, "text");
      c.label.setAttribute("class", "count");
      c.setAttribute("data-testid", "cluster");
      c.setAttribute("tabindex", "-1");
      c.setAttribute("role", "button");
      c.addEventListener("mouseenter", () => { if (!map.popup.pinned() && !map.input.moving()) map.popup.show(c, false); });
      clusters.push(c);
    }
    if (!c.parentNode) {
      layer.appendChild(c);
      counts.appendChild(c.label);
    }
    const at = centreOf(hd, countOf), n = hd.n, whole = !zoomSplits(hd);
    const cls = "cluster" + (hd.mine ? " mine" : "") + (c === map.popup.selected ? " selected" : "");
    hd.el = c;
    c.head = hd;
    c.members = hd.members;
    c.centre = at;
    setCluster(hd, c);
    c.scaled = 0;
    if (c.getAttribute("class") !== cls) c.setAttribute("class", cls);
    // Where they are, for a cluster zooming cannot split: "6 students in Seoul, South Korea".
    const place = whole ? sharedPlace(shownStudents(c)) : "";
    if (c.count !== n || c.whole !== whole || c.place !== place) {
      c.count = n;
      c.whole = whole;
      c.place = place;
      const digits = String(n).length;
      c.radius = clusterRadius(n);
      c.firstChild.setAttribute("r", c.radius);
      c.label.textContent = n;
      c.label.setAttribute("class", "count" + (digits > 3 ? " long" : ""));
      c.dataset.count = n;
      // Enter zooms in, or lists them where zooming cannot tell them apart.
      c.setAttribute("aria-label", whole ? n + (place ? " students in " + place : " students here") : n + " students near here: zoom in");
    }
    return c;
  }
  /* Whether zooming in can split a group, from the level it is drawn at (clusters.mjs). */
  function zoomSplits(hd) {
    return zoomCanSplit(hd.members, zoomLevel(map.placed.unit), zoomLevel(zoomRange(map.size)[0]), map.reach);
  }

  /** Whether a marker or cluster is drawn. */
  function inSvg(el) {
    return el.parentNode === o.layer || el.parentNode === layer;
  }
  /** What a marker is drawn as now: the cluster it is in, itself, or null (not drawn). */
  function drawnAs(m) {
    return m.cluster || (inSvg(m) ? m : null);
  }
  /** Whether a marker or cluster is drawn and on the screen. */
  function onScreen(el) {
    return inSvg(el) && inView(pointOf(el), map.svg.view);
  }
  /** The markers and clusters drawn on the screen: what the keyboard may reach, what names avoid. */
  function reachable() {
    const found = [];
    for (const m of o.layer.children) if (m.at && onScreen(m)) found.push(m);
    for (const c of layer.children) if (onScreen(c)) found.push(c);
    return found;
  }
  return { stash, take, group, draw, drawnAs, onScreen, reachable };
}
