// The map in the browser, shared by `onthemap export --html` (inlined in the file) and
// onthemap-server's page, so both show and move the same world (docs/MAP.md, "In a browser").
//
// `mapView(o)` takes the two SVGs the server or the export draws — the world (`o.world`) and, over
// it, the markers' (`o.svg`, with an empty or filled `<g id="markers">`, `o.layer`, in a
// `<g id="view">`) — and the popup's elements, and returns the view's controls. Markers are SVG
// groups of class `marker`, each placed by `translate(x y) scale(s)` in map units and holding
// one `.student` per student at its point (`data-name`, `data-place`, `data-url`; class `mine`).
//
// The camera is a centre and a scale (map units per screen pixel); what is shown is derived from
// it and the element's size, so the view always fills the element (no letterboxing) and never
// shows past the edges of the world. The first view covers the element with the band of the
// world's first viewBox (84°N to 60°S) and slides to where most pins are; zooming out stops at the
// whole world's width (or, on a tall screen, its whole height). Markers keep their size on screen.
//
// Markers within `reach` pixels of a cluster's first marker are drawn as one cluster with the
// number of students in it (clusters.mjs). Hovering a cluster lists its students; a click zooms in to
// fit its markers, or, when they stay one cluster at the closest zoom, pins that list. An open list
// follows its marker (`anchor`) into and out of clusters.
//
// Optional hooks: `o.onView(unit)` after every change of view (a page's own layers follow the
// zoom), `o.active()` whether keys are the map's now (a page with other screens), `o.onPopup(marker,
// pinned)` when a popup opens, and `o.onPopup(null)` when the person closes it.
//
// The keyboard: one marker or cluster on the screen is in the Tab order (a roving tabindex), the
// arrow keys move between them (and pan where there is none that way); Enter opens a popup and puts
// the focus in it, Escape closes it and puts the focus back on its pin.
//
// Zoom: wheel, `+`/`-`, double-click, two-finger pinch. Pan: drag, arrow keys. `0`: the first view
// again. Markers and clusters take the keyboard focus; Enter or Space does what a click does.
//
// Work per frame is kept to what changed, for ten thousand markers (docs/MAP.md): while a drag,
// pinch or wheel moves the view, the markers' SVG as drawn is moved and scaled by a CSS transform
// and drawn for real every half screen, when the zoom has doubled or halved since, and when the
// view rests; the world likewise, drawn anew when the view rests. Clusters are grouped once per
// zoom level and kept, those a zoom is about to reach worked out ahead in idle time. Only what lies
// within a screen of the view is in the SVG; markers not drawn wait in a hidden `<div>` outside it.

import { advanceGrouping, centreOf, startGrouping, zoomLevel } from "./clusters.mjs";
import { WORLD } from "./mercator.mjs";
import { layoutNames } from "./names.mjs";
import { foldText, isWebLink } from "./text.mjs";

const SVG_NS = "http://www.w3.org/2000/svg";
/** How far past the world's edges a drag reaches, in pixels: a marker at the antimeridian comes whole
 *  onto the screen. */
const EDGE = 32;
/** How close on screen, in pixels, markers are drawn as one cluster. */
export const CLUSTER_REACH = 28;

export function mapView(o) {
  const svg = o.svg, popup = o.popup, heading = o.heading, list = o.list, entry = o.entry;
  const reach = o.reach || CLUSTER_REACH;
  const layer = document.createElementNS(SVG_NS, "g"), counts = document.createElementNS(SVG_NS, "g");
  const namesLayer = document.createElementNS(SVG_NS, "g"), stash = document.createElement("div");
  const view = o.layer.parentNode;
  // The band shown first: the world's first viewBox, as the server or the export drew it.
  const first = o.world ? o.world.viewBox.baseVal : { y: 0, height: WORLD };
  const band = { top: o.top ?? first.y, bottom: o.bottom ?? first.y + first.height };
  let markers = [], heads = [], selected = null, anchor = null, drag = null, pinch = null, grouped = null;
  const clusters = [], fingers = new Map(), levels = new Map();
  let fitted = false, drawn = null, settle = 0, box = null, near = null, showing = null, pop = null, wheeled = -1e9;
  let placed = null, widen = 0, trend = 0, last = 0, ahead = null, queue = [], idling = false;
  // The one marker or cluster in the Tab order (a roving tabindex: arrow keys move between them).
  let stop = null;
  // The names (names.mjs): their data once given (`setNames`), and whether a layout is due.
  let names = null, namesDue = false, measureText = null;
  const cam = { x: WORLD / 2, y: (band.top + band.bottom) / 2, unit: 1 }, size = { w: 1, h: 1 };
  layer.setAttribute("id", "clusters");
  o.layer.after(layer);
  // Clusters' counts above every disc: a neighbour's disc never hides a count.
  counts.setAttribute("id", "counts");
  layer.after(counts);
  // Names under the pins.
  namesLayer.setAttribute("id", "names");
  namesLayer.setAttribute("aria-hidden", "true");
  o.layer.before(namesLayer);
  // Markers not drawn (in a cluster, filtered out, or far off screen) wait here, in the page (a
  // search or a test finds them) but outside any SVG: the browser makes no box for an SVG element
  // there, where in a hidden group of the SVG it laid out and walked all ten thousand every frame.
  stash.hidden = true;
  svg.after(stash);
  // How the groupings were had, for tests: worked out in idle time (`ahead`), found kept when a
  // drawing needed them (`found`), or worked out then, the drawing waiting (`late`).
  const groupings = svg.groupings = { ahead: 0, found: 0, late: 0 };

  /* The element's box, read once and again only when it changes size: each read after a change to
     the markers made the browser lay the page out again, there and then. */
  function measure() {
    if (!box) {
      const r = svg.parentNode.getBoundingClientRect();
      box = { left: r.left, top: r.top };
      size.w = Math.max(r.width, 1);
      size.h = Math.max(r.height, 1);
    }
    return box;
  }
  function resized() {
    box = null;
    pop = null;
    apply(true);
  }
  /* Units per pixel: from a view 500 units wide to the whole world's width (or height, if taller). */
  function range() {
    return [500 / size.w, Math.min(WORLD / size.w, WORLD / size.h)];
  }
  function between(v, lo, hi) {
    return lo > hi ? (lo + hi) / 2 : Math.min(Math.max(v, lo), hi);
  }
  function clamp() {
    const r = range();
    const u = cam.unit = between(cam.unit, r[0], r[1]), hw = size.w * u / 2, hh = size.h * u / 2, m = EDGE * u;
    cam.x = between(cam.x, hw - m, WORLD + m - hw);
    cam.y = between(cam.y, hh, WORLD - hh);
  }

  /* Shows the camera's view; `moving`: a drag, pinch or wheel is under way (see `follow`). The
     markers' SVG keeps its viewBox (changing it cost time for every element in it, drawn or not):
     the view is the transform of the group that holds what is drawn. `svg.view` says what is shown,
     in map units. */
  function apply(moving) {
    measure();
    clamp();
    const u = cam.unit, x = cam.x - size.w * u / 2, y = cam.y - size.h * u / 2;
    if (moving && last && u !== last) trend = last / u;
    last = u;
    const v = svg.view || (svg.view = {});
    v.x = x;
    v.y = y;
    v.width = size.w * u;
    v.height = size.h * u;
    // While a drag, pinch or wheel moves the view, the markers' SVG as drawn is moved and scaled (a
    // CSS transform from its top left corner: the compositor moves the picture), within half a
    // screen of where it was drawn and up to twice or half its size. Past that, and when the view
    // comes to rest (`rest`), they are drawn for real.
    const s = placed ? placed.unit / u : 0;
    if (moving && placed && placed.w === size.w && placed.h === size.h && s >= 0.5 && s <= 2 && (s !== 1 || !near.narrow) &&
      Math.abs(cam.x - placed.x) <= size.w * u / 2 && Math.abs(cam.y - placed.y) <= size.h * u / 2) {
      svg.style.transform = "translate(" + ((placed.x - cam.x) / u + (1 - s) * size.w / 2) + "px," +
        ((placed.y - cam.y) / u + (1 - s) * size.h / 2) + "px)" + (s === 1 ? "" : " scale(" + s + ")");
    } else {
      commit(moving && zoomLevel(u) !== grouped);
    }
    // A wheel has no end of its own: the view is at rest 200 ms after its last notch.
    if (moving && !drag && !pinch) {
      clearTimeout(settle);
      settle = setTimeout(rest, 200);
    }
    place();
    if (o.world) {
      if (moving) follow();
      else redraw();
    }
    if (o.onView) o.onView(placed.unit, v);
  }

  /* Places the group that holds what is drawn for the camera (`placed`), and draws what came within
     reach; `narrow`: a zoom under way, when a quarter of a screen around the view is drawn, and the
     rest 300 ms after. */
  function commit(narrow) {
    const u = cam.unit, x = cam.x - size.w * u / 2, y = cam.y - size.h * u / 2, out = near && near.narrow ? 0.25 : 0.5;
    view.setAttribute("transform", "matrix(" + 1 / u + " 0 0 " + 1 / u + " " + (-x / u) + " " + (-y / u) + ")");
    placed = { x: cam.x, y: cam.y, unit: u, w: size.w, h: size.h };
    if (svg.style.transform) svg.style.transform = "";
    for (const t of namesLayer.children) t.setAttribute("transform", "translate(" + t.at.x + " " + t.at.y + ") scale(" + u + ")");
    if (zoomLevel(u) !== grouped) group(narrow);
    else if (!near || near.narrow && !narrow || Math.abs(cam.x - near.x) > size.w * u * out || Math.abs(cam.y - near.y) > size.h * u * out) draw(narrow);
    clearTimeout(widen);
    if (near.narrow) widen = setTimeout(() => { if (near.narrow) draw(false); }, 300);
    foresee();
    // The names are laid out for where the markers are drawn (once the view rests: drawNames waits).
    if (!narrow) nameSoon();
  }

  /* While the view moves, the world is not drawn again: its layer is moved and scaled where the view
     has gone (drawing the coasts again cost a software renderer a hundred milliseconds a frame), and
     drawn anew when the fingers or the button are lifted, or when the wheel rests. */
  function follow() {
    const u = cam.unit, x = cam.x - size.w * u / 2, y = cam.y - size.h * u / 2;
    if (!drawn || drawn.w !== size.w || drawn.h !== size.h) {
      redraw();
      return;
    }
    o.world.style.transform = "translate(" + (drawn.x - x) / u + "px," + (drawn.y - y) / u + "px) scale(" + drawn.unit / u + ")";
  }
  /* The wheel has rested: the markers and the world are drawn for the view. */
  function rest() {
    if (drag || pinch) return;
    if (svg.style.transform) commit();
    if (o.world) redraw();
  }
  function redraw() {
    clearTimeout(settle);
    const u = cam.unit, x = cam.x - size.w * u / 2, y = cam.y - size.h * u / 2, wb = o.world.viewBox.baseVal;
    if (drawn && drawn.x === x && drawn.y === y && drawn.unit === u && drawn.w === size.w && drawn.h === size.h) return;
    drawn = { x, y, unit: u, w: size.w, h: size.h };
    wb.x = x;
    wb.y = y;
    wb.width = size.w * u;
    wb.height = size.h * u;
    o.world.style.transform = "";
    nameSoon();
  }

  /* The centre of the window of `span` that holds the most of `values`, kept within lo…hi. */
  function densest(values, span, lo, hi) {
    if (span >= hi - lo || !values.length) return (lo + hi) / 2;
    const v = values.slice().sort((a, b) => a - b);
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
  function fit() {
    measure();
    const u = Math.max(Math.min(WORLD / size.w, (band.bottom - band.top) / size.h), range()[0]);
    const shown = markers.filter((m) => !m.filtered);
    fitted = true;
    cam.unit = u;
    cam.x = densest(shown.map((m) => m.at.x), size.w * u, -EDGE * u, WORLD + EDGE * u);
    cam.y = densest(shown.map((m) => m.at.y), size.h * u, band.top, band.bottom);
    // Your own pin whole on the screen, a cluster's width from its edge (at 390 pixels the window
    // with the most pins could cut it off at the left).
    const mine = shown.find((m) => m.mine), margin = 40 * u;
    if (mine) {
      cam.x = between(cam.x, mine.at.x - size.w * u / 2 + margin, mine.at.x + size.w * u / 2 - margin);
      cam.y = between(cam.y, mine.at.y - size.h * u / 2 + margin, mine.at.y + size.h * u / 2 - margin);
    }
    hide();
    grouped = null;
    apply();
  }

  /* Takes new markers, in `o.layer` (the old ones are dropped); `refit`: show the first view for
     them. A marker may bring its point as `at` ({x, y}); otherwise it is read from its
     `translate(x y)`. */
  function setMarkers(list, refit) {
    stash.replaceChildren();
    markers = list;
    for (const m of markers) {
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
      m.drawn = true;
    }
    heads = [];
    ahead = null;
    queue = [];
    if (anchor && markers.indexOf(anchor) < 0) hide();
    grouped = null;
    levels.clear();
    if (refit || !fitted) fit();
    else apply();
  }
  function studentsOf(m) {
    return m.students || (m.students = Array.from(m.querySelectorAll(".student")));
  }
  /* How many students a marker shows (the search leaves); kept, as `mine` is, so clustering ten
     thousand markers reads no element. */
  function countOf(m) {
    return m.count != null ? m.count : (m.count = shown(m).length);
  }

  /* Draws what is within a screen of the view (a screen's margin on every side, so a drag draws again
     only every half screen): the markers alone, each at its size, yours on top, and the clusters;
     the one an open list follows is drawn wherever it is. A cluster's element is kept while it stays
     in reach, and an attribute is written only when it changes. */
  function draw(narrow) {
    // A marker or cluster with the focus may leave the SVG below (into a cluster, or out of reach):
    // the focus follows it to what it became.
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest(".marker,.cluster");
    const follow = focused && (focused.members ? focused.members[0] : focused);
    const u = placed.unit, w = size.w * u * (narrow ? 0.75 : 1.5), h = size.h * u * (narrow ? 0.75 : 1.5);
    const mine = [], keep = anchor && anchor.head, free = [], want = [], cx = placed.x, cy = placed.y;
    near = { x: cx, y: cy, narrow: !!narrow };
    for (const m of markers) {
      const hd = m.head;
      const on = !!hd && hd.members.length === 1 && (hd === keep || Math.abs(m.at.x - cx) <= w && Math.abs(m.at.y - cy) <= h);
      if (m.drawn !== on) {
        (on ? o.layer : stash).appendChild(m);
        m.drawn = on;
      }
      if (!on) continue;
      if (m.scaled !== u) {
        m.setAttribute("transform", "translate(" + m.at.x + " " + m.at.y + ") scale(" + u + ")");
        m.scaled = u;
      }
      if (m.mine) mine.push(m);
    }
    for (const m of mine) o.layer.appendChild(m);
    for (const c of clusters) if (!c.head) free.push(c);
    for (const hd of heads) {
      if (hd.members.length < 2) continue;
      const at = centreOf(hd, countOf), on = hd === keep || Math.abs(at.x - cx) <= w && Math.abs(at.y - cy) <= h;
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
    for (const hd of heads) {
      if (hd.el && hd.el.scaled !== u) {
        const t = "translate(" + hd.centre.x + " " + hd.centre.y + ") scale(" + u + ")";
        hd.el.setAttribute("transform", t);
        hd.el.label.setAttribute("transform", t);
        hd.el.scaled = u;
      }
    }
    rove(follow);
    if (!narrow) nameSoon();
  }
  /* The markers in a cluster point to its element while it is drawn (`m.cluster`). */
  function setCluster(hd, c) {
    for (const m of hd.members) m.cluster = c;
  }

  /* Which markers are one cluster at this zoom (`heads`): the level's groups, kept (`levels`) or
     worked out now if idle time has not (`foresee`). */
  function group(narrow) {
    const level = grouped = zoomLevel(placed.unit), pinned = popup.dataset.pinned;
    for (const c of clusters) c.head = null;
    heads = levels.get(level);
    if (heads) groupings.found++;
    else {
      const job = ahead && ahead.level === level ? ahead : startGrouping(markers, level, reach);
      if (job === ahead) ahead = null;
      advanceGrouping(job, Infinity, countOf);
      heads = keep(job);
      groupings.late++;
    }
    for (const m of markers) {
      m.cluster = null;
      m.head = null;
    }
    for (const hd of heads) {
      hd.el = null;
      for (const m of hd.members) m.head = hd;
    }
    draw(narrow);
    if (anchor && anchor.filtered) hide();
    else if (selected) show(anchor.cluster || anchor, pinned);
  }
  /* Keeps a level's groups; past 24 levels, drops the one farthest from the view's (a zoom goes
     through the levels one after the other: the far ones are needed last). */
  function keep(job) {
    levels.set(job.level, job.heads);
    if (levels.size > 24) {
      let far = null;
      levels.forEach((_, level) => {
        if (far === null || Math.abs(level - grouped) > Math.abs(far - grouped)) far = level;
      });
      levels.delete(far);
    }
    return job.heads;
  }
  /* Works out ahead, in idle time, the groupings a zoom is about to need, so that redrawing the
     markers in the middle of a gesture finds its level kept (grouping ten thousand markers anew took
     up to 30 ms, which made that frame miss two or three of the screen's). Foreseen: where the
     gesture under way (or a wheel's notch) will next redraw, going on or turning back, and the one
     after; the levels beside those; and the keys' and a double-click's zoom. */
  function foresee() {
    const u = placed.unit, f = Math.abs(Math.log(trend || 1)) > 0.01 ? trend : 1.25, r = range(), want = [];
    function next(v, g) {
      let w = v;
      for (let i = 0; i < 64 && w >= v / 2 && w <= v * 2 && w >= r[0] && w <= r[1]; i++) w /= g;
      return between(w, r[0], r[1]);
    }
    const on = next(u, f), back = next(u, 1 / f);
    want.push(zoomLevel(on), zoomLevel(back), zoomLevel(next(on, f)), zoomLevel(on) - 1, zoomLevel(on) + 1,
      zoomLevel(back) - 1, zoomLevel(back) + 1, zoomLevel(u / 1.5), zoomLevel(u * 1.5), zoomLevel(u / 2));
    queue = want.filter((level, i) => want.indexOf(level) === i && !levels.has(level));
    if (ahead && queue.indexOf(ahead.level) < 0) ahead = null;
    if (queue.length && !idling) {
      idling = true;
      idle(work);
    }
  }
  function idle(f) {
    if (window.requestIdleCallback) requestIdleCallback(f);
    else setTimeout(f, 20);
  }
  /* A few milliseconds at a time, so that a frame or an event never waits long for it. */
  function work(deadline) {
    idling = false;
    const until = performance.now() + Math.min(deadline ? deadline.timeRemaining() : 4, 8);
    while (ahead || queue.length) {
      if (!ahead) {
        const level = queue.shift();
        if (levels.has(level)) continue;
        ahead = startGrouping(markers, level, reach);
      }
      if (!advanceGrouping(ahead, until, countOf)) break;
      keep(ahead);
      ahead = null;
      groupings.ahead++;
    }
    if (ahead || queue.length) {
      idling = true;
      idle(work);
    }
  }

  /* Draws a group as a cluster in `c` (an element no longer used, or a new one): a disc, and its
     count in the layer above every disc. The disc grows with the count's digits. */
  function cluster(hd, c) {
    if (!c) {
      c = document.createElementNS(SVG_NS, "g");
      c.append(document.createElementNS(SVG_NS, "circle"));
      c.label = document.createElementNS(SVG_NS, "text");
      c.label.setAttribute("class", "count");
      c.setAttribute("data-testid", "cluster");
      c.setAttribute("tabindex", "-1");
      c.setAttribute("role", "button");
      c.addEventListener("mouseenter", () => { if (!popup.dataset.pinned && !moving()) show(c, false); });
      clusters.push(c);
    }
    if (!c.parentNode) {
      layer.appendChild(c);
      counts.appendChild(c.label);
    }
    const at = centreOf(hd, countOf), n = hd.n;
    const cls = "cluster" + (hd.mine ? " mine" : "") + (c === selected ? " selected" : "");
    hd.el = c;
    c.head = hd;
    c.members = hd.members;
    c.centre = at;
    setCluster(hd, c);
    c.scaled = 0;
    if (c.getAttribute("class") !== cls) c.setAttribute("class", cls);
    if (c.count !== n) {
      c.count = n;
      const digits = String(n).length;
      c.radius = digits < 2 ? 11 : digits < 3 ? 13 : digits < 4 ? 16 : 19;
      c.firstChild.setAttribute("r", c.radius);
      c.label.textContent = n;
      c.label.setAttribute("class", "count" + (digits > 3 ? " long" : ""));
      c.dataset.count = n;
      c.setAttribute("aria-label", n + " students near here: zoom in");
    }
    return c;
  }
  function expand(c) {
    const members = c.members, xs = members.map((m) => m.at.x), ys = members.map((m) => m.at.y);
    const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
    const margin = Math.min(80, size.w / 4, size.h / 4);
    cam.unit = Math.max((x1 - x0) / Math.max(size.w - 2 * margin, 1), (y1 - y0) / Math.max(size.h - 2 * margin, 1));
    cam.x = (x0 + x1) / 2;
    cam.y = (y0 + y1) / 2;
    hide();
    apply();
    // `members`, not `c.members`: the element may hold another cluster once regrouped.
    const still = members[0].cluster;
    if (still && members.every((m) => m.cluster === still)) show(still, true, true);
    focusOn(members[0].cluster || members[0]);
  }

  /* Whether a marker or cluster is drawn, and its point on the screen. */
  function inSvg(el) {
    return el.parentNode === o.layer || el.parentNode === layer;
  }
  function pointOf(el) {
    return el.members ? el.centre : el.at;
  }
  function onScreen(el) {
    const p = pointOf(el), v = svg.view;
    return inSvg(el) && p.x >= v.x && p.x <= v.x + v.width && p.y >= v.y && p.y <= v.y + v.height;
  }
  /* What the keyboard may reach now: the markers and clusters drawn on the screen. */
  function reachable() {
    const found = [];
    for (const m of o.layer.children) if (m.at && onScreen(m)) found.push(m);
    for (const c of layer.children) if (onScreen(c)) found.push(c);
    return found;
  }
  function setStop(el) {
    if (stop === el) return;
    if (stop) stop.setAttribute("tabindex", "-1");
    stop = el;
    if (el) el.setAttribute("tabindex", "0");
  }
  function focusOn(el) {
    setStop(el);
    el.focus({ preventScroll: true });
  }
  /* Keeps one marker or cluster on the screen in the Tab order: the one there, else the one nearest
     the view's centre; the focus follows `follow` (a marker, or a cluster's first) to what it became. */
  function rove(follow) {
    if (follow) {
      const now = follow.cluster || (inSvg(follow) ? follow : null);
      if (now && now !== document.activeElement) focusOn(now);
    }
    if (stop && onScreen(stop)) return;
    let best = null, d = Infinity;
    for (const el of reachable()) {
      const p = pointOf(el), e = Math.hypot(p.x - cam.x, p.y - cam.y);
      if (e < d) {
        d = e;
        best = el;
      }
    }
    setStop(best);
  }
  /* The marker or cluster on the screen next from `from` in an arrow's direction: the nearest ahead,
     a step to the side counting twice a step ahead. */
  function neighbour(from, key) {
    const ux = key === "ArrowLeft" ? -1 : key === "ArrowRight" ? 1 : 0, uy = key === "ArrowUp" ? -1 : key === "ArrowDown" ? 1 : 0;
    const p = pointOf(from);
    let best = null, score = Infinity;
    for (const el of reachable()) {
      if (el === from) continue;
      const q = pointOf(el), dx = (q.x - p.x) / cam.unit, dy = (q.y - p.y) / cam.unit;
      const ahead = dx * ux + dy * uy, aside = Math.abs(dx * uy - dy * ux);
      if (ahead < 1) continue;
      if (ahead + 2 * aside < score) {
        score = ahead + 2 * aside;
        best = el;
      }
    }
    return best;
  }

  /* The names are laid out again once the view rests, or the markers drawn change, in a task of its
     own (a few milliseconds). */
  function nameSoon() {
    if (!names || namesDue) return;
    namesDue = true;
    setTimeout(drawNames, 0);
  }
  function drawNames() {
    namesDue = false;
    if (!names || !placed || drag || pinch || svg.style.transform) return;
    if (!measureText) {
      // Widths from the fonts the style sheet gives the names, read once.
      const context = document.createElement("canvas").getContext("2d"), fonts = {};
      for (const kind of ["country", "place"]) {
        const probe = document.createElementNS(SVG_NS, "text");
        probe.setAttribute("class", "name " + kind);
        namesLayer.appendChild(probe);
        fonts[kind] = getComputedStyle(probe).font;
        probe.remove();
      }
      measureText = (text, kind) => {
        context.font = fonts[kind];
        return context.measureText(text).width;
      };
    }
    const u = placed.unit, v = { x: placed.x - size.w * u / 2, y: placed.y - size.h * u / 2, unit: u, w: size.w, h: size.h };
    const obstacles = [];
    for (const el of reachable()) {
      const p = pointOf(el), r = (el.radius || (el.radius = +el.querySelector("circle").getAttribute("r") || 5)) + 4;
      const sx = (p.x - v.x) / u, sy = (p.y - v.y) / u;
      obstacles.push({ left: sx - r, right: sx + r, top: sy - r, bottom: sy + r });
    }
    const frag = document.createDocumentFragment();
    for (const n of layoutNames(names, v, obstacles, measureText)) {
      const t = document.createElementNS(SVG_NS, "text");
      t.setAttribute("class", "name " + n.kind);
      t.setAttribute("text-anchor", n.anchor);
      if (n.dx) t.setAttribute("x", n.dx);
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
    namesLayer.replaceChildren(frag);
  }
  /* Shows the markers given (or those a search left) whole on the screen, at most as close as the
     map goes. */
  function fitTo(list) {
    if (!list.length) return;
    const xs = list.map((m) => m.at.x), ys = list.map((m) => m.at.y), margin = Math.min(80, size.w / 4, size.h / 4);
    const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
    measure();
    cam.unit = Math.max((x1 - x0) / Math.max(size.w - 2 * margin, 1), (y1 - y0) / Math.max(size.h - 2 * margin, 1));
    cam.x = (x0 + x1) / 2;
    cam.y = (y0 + y1) / 2;
    // An open popup stays, if its pin is among them (the regrouping closes it otherwise).
    apply();
  }

  /* A map point from a pointer's position. */
  function point(ev) {
    const r = measure(), u = cam.unit;
    return { x: cam.x + (ev.clientX - r.left - size.w / 2) * u, y: cam.y + (ev.clientY - r.top - size.h / 2) * u };
  }
  /* Zooms in by f (out when below 1) keeping the map point `at` where it is on screen. */
  function zoom(f, at, moving) {
    const u = cam.unit, r = range(), next = between(u / f, r[0], r[1]);
    cam.x = at.x - (at.x - cam.x) * next / u;
    cam.y = at.y - (at.y - cam.y) * next / u;
    cam.unit = next;
    apply(moving);
  }
  function centre() {
    return { x: cam.x, y: cam.y };
  }

  /* Markers and clusters are found from the event's target: one listener for ten thousand. */
  function hit(ev) {
    return ev.target.closest && ev.target.closest(".marker,.cluster");
  }
  function clicked(ev) {
    const t = hit(ev);
    if (!t) return;
    ev.stopPropagation();
    if (t.members) expand(t);
    else show(t, true, true);
  }
  // A marker not drawn takes a click too (a script's, or a test's): its list opens.
  svg.addEventListener("click", clicked);
  stash.addEventListener("click", clicked);
  svg.addEventListener("mouseover", (ev) => {
    const t = hit(ev);
    if (t && !t.members && t !== selected && !popup.dataset.pinned && !moving()) show(t, false);
  });
  /* Whether the view is being moved: markers passing under a resting pointer open no list then. */
  function moving() {
    return !!pinch || !!(drag && drag.moved) || performance.now() - wheeled < 300;
  }
  svg.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    wheeled = performance.now();
    // Trackpads send many small steps; a mouse wheel's notch zooms by a quarter.
    const f = ev.deltaMode === 0 && Math.abs(ev.deltaY) < 50 ? Math.exp(-ev.deltaY / 100) : ev.deltaY < 0 ? 1.25 : 0.8;
    zoom(f, point(ev), true);
  }, { passive: false });
  svg.addEventListener("dblclick", (ev) => {
    if (hit(ev)) return;
    ev.preventDefault();
    zoom(2, point(ev));
  });
  svg.addEventListener("pointerdown", (ev) => {
    fingers.set(ev.pointerId, { clientX: ev.clientX, clientY: ev.clientY });
    if (fingers.size === 2) {
      const f = Array.from(fingers.values());
      pinch = { apart: apart(f), unit: cam.unit, at: point(middle(f)) };
      drag = null;
      svg.classList.add("dragging");
      return;
    }
    // A drag may start on a marker too: until it moves it is a tap, which the marker's click takes.
    drag = { x: ev.clientX, y: ev.clientY, cx: cam.x, cy: cam.y, moved: false, id: ev.pointerId };
  });
  svg.addEventListener("pointermove", (ev) => {
    if (fingers.has(ev.pointerId)) fingers.set(ev.pointerId, { clientX: ev.clientX, clientY: ev.clientY });
    if (pinch && fingers.size === 2) {
      const f = Array.from(fingers.values()), mid = middle(f), r = measure(), rg = range();
      cam.unit = between(pinch.unit * pinch.apart / apart(f), rg[0], rg[1]);
      cam.x = pinch.at.x - (mid.clientX - r.left - size.w / 2) * cam.unit;
      cam.y = pinch.at.y - (mid.clientY - r.top - size.h / 2) * cam.unit;
      apply(true);
      return;
    }
    if (!drag) return;
    if (!drag.moved) {
      if (Math.abs(ev.clientX - drag.x) + Math.abs(ev.clientY - drag.y) <= 3) return;
      // Captured once it moves: the marker it started on gets no click, the map gets the rest.
      drag.moved = true;
      svg.classList.add("dragging");
      try {
        svg.setPointerCapture(drag.id);
      } catch (e) {
        // a pointer the browser does not know (a synthetic event)
      }
    }
    cam.x = drag.cx - (ev.clientX - drag.x) * cam.unit;
    cam.y = drag.cy - (ev.clientY - drag.y) * cam.unit;
    apply(true);
  });
  function apart(f) {
    return Math.max(Math.hypot(f[0].clientX - f[1].clientX, f[0].clientY - f[1].clientY), 1);
  }
  function middle(f) {
    return { clientX: (f[0].clientX + f[1].clientX) / 2, clientY: (f[0].clientY + f[1].clientY) / 2 };
  }
  function endDrag(ev) {
    fingers.delete(ev.pointerId);
    const moved = !!pinch || !!(drag && drag.moved);
    if (fingers.size < 2) pinch = null;
    if (drag && !drag.moved && !hit(ev)) dismiss();
    drag = null;
    if (!fingers.size) svg.classList.remove("dragging");
    if (moved) commit();
    if (moved && o.world && !fingers.size) {
      clearTimeout(settle);
      settle = setTimeout(redraw, 100);
    }
  }
  svg.addEventListener("pointerup", endDrag);
  svg.addEventListener("pointercancel", endDrag);

  /* The students a marker or cluster shows (those the search leaves). */
  function shown(m) {
    if (m.members) return [].concat(...m.members.map(shown));
    return studentsOf(m).filter((s) => !s.classList.contains("hidden"));
  }
  function item(s) {
    const li = entry.cloneNode(true), a = li.querySelector("a"), url = s.dataset.url || "";
    li.querySelector(".name").textContent = s.dataset.name;
    li.querySelector(".you").hidden = !s.classList.contains("mine");
    li.querySelector(".place").textContent = s.dataset.place;
    a.textContent = url;
    if (isWebLink(url)) a.href = url;
    return li;
  }
  /* Opens the popup on a marker or cluster; `pinned`: it stays when the pointer leaves; `chosen`: the
     person opened it (a click, Enter, an address), so the focus goes into it. A popup shown again as
     the markers regroup leaves the focus where it is. */
  function show(m, pinned, chosen) {
    if (selected && selected !== m) selected.classList.remove("selected");
    selected = m;
    m.classList.add("selected");
    if (!m.members) anchor = m;
    else if (m.members.indexOf(anchor) < 0) anchor = m.members[0];
    popup.dataset.pinned = pinned ? "1" : "";
    const here = shown(m);
    // The list is written again only when it lists others: a zoom shows it again at every step.
    if (!showing || showing.cluster !== !!m.members || showing.here.length !== here.length || here.some((s, i) => s !== showing.here[i])) {
      showing = { cluster: !!m.members, here };
      heading.textContent = here.length + (m.members ? " students near here" : " students here");
      heading.hidden = here.length < 2;
      list.replaceChildren(...here.map(item));
      pop = null;
    }
    popup.setAttribute("aria-label", here.length === 1 ? here[0].dataset.name + ", " + here[0].dataset.place : heading.textContent);
    popup.hidden = false;
    place();
    // Opened on purpose: the focus goes into it, to its first link, else its Close.
    if (chosen) {
      (list.querySelector("a[href]") || o.close).focus({ preventScroll: true });
      if (o.onPopup) o.onPopup(m, pinned);
    }
  }
  /* Closes the popup; the focus, if it was in it, goes back to its pin (or the cluster it is in). */
  function close() {
    const back = popup.contains(document.activeElement) && anchor ? anchor.cluster || (inSvg(anchor) ? anchor : null) : null;
    dismiss();
    if (back) focusOn(back);
  }
  /* Closed by the person (Close, Escape, a tap beside it), not by a change of view: `o.onPopup` hears. */
  function dismiss() {
    const open = !popup.hidden;
    hide();
    if (open && o.onPopup) o.onPopup(null, false);
  }
  function hide() {
    popup.hidden = true;
    popup.dataset.pinned = "";
    if (selected) selected.classList.remove("selected");
    selected = anchor = null;
    showing = null;
  }
  /* Beside the marker or cluster, from where the camera puts it (reading where the browser drew it
     made it lay the page out again at every frame); the popup's size is read once after its list
     changes. */
  function place() {
    if (!selected || popup.hidden) return;
    const u = cam.unit, p = selected.members ? selected.centre : selected.at;
    const r = (selected.radius || (selected.radius = +selected.querySelector("circle").getAttribute("r") || 5)) * placed.unit / u;
    const x = (p.x - cam.x) / u + size.w / 2, y = (p.y - cam.y) / u + size.h / 2;
    if (!pop) pop = { w: popup.offsetWidth, h: popup.offsetHeight };
    popup.style.left = Math.max(Math.min(x + r + 8, size.w - pop.w - 4), 4) + "px";
    popup.style.top = Math.max(Math.min(y - r - 8, size.h - pop.h - 4), 4) + "px";
  }
  o.close.addEventListener("click", close);
  popup.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape") return;
    ev.stopPropagation();
    close();
  });

  /* Whether a student's name or place holds `q` (folded): its key folded once, or given by the page. */
  function matches(s, q) {
    return (s.find || (s.find = foldText(s.dataset.name + "\n" + s.dataset.place))).includes(q);
  }
  /* Leaves the students whose name or place holds `text`; returns how many. */
  function filter(text) {
    const q = foldText(text.trim());
    let found = 0;
    for (const m of markers) {
      const students = studentsOf(m);
      let here = 0, mine = false;
      for (const s of students) {
        const out = !!q && !matches(s, q);
        s.classList.toggle("hidden", out);
        if (!out) {
          here++;
          mine = mine || s.classList.contains("mine");
        }
      }
      const label = m.querySelector("text");
      found += here;
      m.filtered = !here;
      m.classList.toggle("hidden", !here);
      if (label) label.textContent = here;
      m.classList.toggle("mine", mine);
      m.mine = mine;
      m.count = here;
    }
    grouped = null;
    levels.clear();
    ahead = null;
    queue = [];
    apply();
    return found;
  }

  document.addEventListener("keydown", (ev) => {
    const t = ev.target;
    if (t.closest && t.closest("input,textarea,select,button,a,dialog") || !svg.getClientRects().length ||
      (o.active && !o.active()) || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const target = t.closest && t.closest(".marker,.cluster"), step = Math.min(size.w, size.h) / 4 * cam.unit;
    if (target && (ev.key === "Enter" || ev.key === " ")) {
      ev.preventDefault();
      target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      return;
    }
    // From a marker or cluster, an arrow goes to the next one that way on the screen; with none there,
    // it pans, as it does from anywhere else.
    const next = target && /^Arrow/.test(ev.key) && !ev.shiftKey ? neighbour(target, ev.key) : null;
    if (next) {
      ev.preventDefault();
      focusOn(next);
      return;
    }
    if (ev.key === "+" || ev.key === "=") zoom(1.5, centre());
    else if (ev.key === "-") zoom(1 / 1.5, centre());
    else if (ev.key === "Escape") dismiss();
    else if (ev.key === "0") fit();
    else if (/^Arrow/.test(ev.key)) {
      ev.preventDefault();
      cam.x += ev.key === "ArrowLeft" ? -step : ev.key === "ArrowRight" ? step : 0;
      cam.y += ev.key === "ArrowUp" ? -step : ev.key === "ArrowDown" ? step : 0;
      apply();
    }
  });
  window.addEventListener("resize", resized);
  if (window.ResizeObserver) new ResizeObserver(resized).observe(svg);

  return {
    setMarkers, filter, fit, fitTo, apply, hide, zoom,
    /** Opens a marker's or cluster's popup, as a click does. */
    show(m) {
      show(m, true, true);
    },
    /** Zooms in (f > 1) or out around the view's centre: the zoom buttons. */
    zoomBy(f) {
      zoom(f, centre());
    },
    /** The names to show (MapLabels.webJSON's data). */
    setNames(data) {
      names = data;
      nameSoon();
    },
    /** The markers left by the search (all, without one). */
    shown() {
      return markers.filter((m) => !m.filtered);
    },
    /** The marker or cluster a student's marker is drawn as now, or null. */
    drawnAs(m) {
      return m.cluster || (inSvg(m) ? m : null);
    },
    /** Centres the view on a map point at `unit` map units per pixel (or the closest allowed). */
    look(x, y, unit) {
      measure();
      cam.x = x;
      cam.y = y;
      if (unit) cam.unit = unit;
      hide();
      apply();
    },
    /** The camera, to put back later: {x, y, unit}. */
    camera(c) {
      if (c) {
        cam.x = c.x;
        cam.y = c.y;
        cam.unit = c.unit;
        apply();
      }
      return { x: cam.x, y: cam.y, unit: cam.unit };
    },
    selected() {
      return anchor;
    },
  };
}
