// The map in the browser, shared by `onthemap export --html` (inlined in the file) and
// onthemap-server's page, so both show and move the same world (docs/MAP.md, "In a browser").
//
// `mapView(o)` takes the two SVGs the server or the export draws — the world (`o.world`) and, over
// it, the markers' (`o.svg`, with an empty or filled `<g id="markers">`, `o.layer`, in a
// `<g id="view">`) — and the popup's elements, and returns the view's controls. It wires the map's
// parts, each in a module of its own: the camera (camera.mjs), what lies within a screen
// (in-view.mjs), the markers and clusters drawn (markers.mjs; students.mjs: what they hold, and the
// search), the clusters per zoom level (grouping.mjs), the popup (popup.mjs), the keyboard's focus
// (roving-focus.mjs), the pointer, wheel and keys (input.mjs) and the names (name-layer.mjs).
//
// Optional hooks: `o.onView(unit)` after every change of view (a page's own layers follow the
// zoom), `o.active()` whether keys are the map's now (a page with other screens), `o.onPopup(marker,
// pinned)` when a popup opens, and `o.onPopup(null)` when the person closes it.
//
// Work per frame is kept to what changed, for ten thousand markers (docs/MAP.md): while a drag,
// pinch or wheel moves the view, the markers' SVG as drawn is moved and scaled by a CSS transform
// and drawn for real every half screen, when the zoom has doubled or halved since, and when the
// view rests; the world likewise, drawn anew when the view rests.

import { between, clampCamera, clearView, firstUnit, firstView, fitView, pictureTransform, viewOf, worldView, zoomCamera, zoomRange } from "./camera.mjs";
import { centreOf, clusterRadius, zoomLevel } from "./clusters.mjs";
import { groupingStore, whenIdle } from "./grouping.mjs";
import { pictureHolds, redrawDue } from "./in-view.mjs";
import { mapInput } from "./input.mjs";
import { markerDrawing } from "./markers.mjs";
import { WORLD } from "./mercator.mjs";
import { nameLayer } from "./name-layer.mjs";
import { mapPopup } from "./popup.mjs";
import { rovingFocus } from "./roving-focus.mjs";
import { countOf, filterStudents, markSearch } from "./students.mjs";

/** How close on screen, in pixels, markers are drawn as one cluster. */
export const CLUSTER_REACH = 28;

export function mapView(o) {
  const svg = o.svg, view = o.layer.parentNode;
  // Out of the Tab order: the keyboard's focus rests on the map itself when the arrows have panned
  // every marker out of sight (roving-focus.mjs), and a click on the map gives it the focus, so the
  // arrows pan it; Tab from there goes to the marker in the Tab order.
  svg.setAttribute("tabindex", "-1");
  // The band shown first: the world's first viewBox, as the server or the export drew it.
  const first = o.world ? o.world.viewBox.baseVal : { y: 0, height: WORLD };
  const band = { top: o.top ?? first.y, bottom: o.bottom ?? first.y + first.height };
  // What the map's parts share: the camera and the element's size; the markers and their groups at
  // the level drawn (`heads`); the camera the markers are drawn for (`placed`) and the centre of what
  // is drawn around it (`near`, in-view.mjs); the parts themselves, and what they call here.
  const map = {
    o, svg, cam: { x: WORLD / 2, y: (band.top + band.bottom) / 2, unit: 1 }, size: { w: 1, h: 1 },
    markers: [], heads: [], placed: null, near: null,
    measure, apply, zoom, centre, fit, expand, lifted,
  };
  // How close markers are drawn as one, and how the groupings were had, for tests (grouping.mjs).
  map.reach = o.reach || CLUSTER_REACH;
  map.groups = groupingStore(map.reach, countOf, svg.groupings = { ahead: 0, found: 0, late: 0 });
  map.drawing = markerDrawing(map);
  map.names = nameLayer(map);
  map.focus = rovingFocus(map);
  map.popup = mapPopup(map);
  map.input = mapInput(map);
  const { cam, size, popup } = map;
  // The element's box; the world as drawn (`drawn`, a camera); the timers that draw when the view
  // rests (`settle`) and widen a drawing narrowed for a zoom (`widen`); the last step's change of
  // scale (`trend`) and the scale before it (`last`), for the groupings foreseen.
  let fitted = false, box = null, drawn = null, settle = 0, widen = 0, trend = 0, last = 0, marking = 0;
  // The first view as fitted (`fit`), while the camera is still there: the person has not moved the
  // map since, so a new size of the element shows the first view for that size. `placing`: how many
  // times a first view was asked for (a login's waits for idle time, `placeFirst`; a newer one ends it).
  let firstCam = null, placing = 0;
  // Pixels at the element's bottom that a sheet is drawn over (the phone's post form): the markers
  // under it are not on the screen, for the keyboard (svg.view, markers.mjs onScreen).
  let covered = 0;

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
  /* The element changed size (a rotation, a window resized, the bar shown at login). The first view
     not moved since is fitted again for the new size, as "whole world" would show it: the element's
     size is read once per frame, so a fit made in the frame that showed the bar used the old one. */
  function resized() {
    const untouched = isFirstView();
    box = null;
    popup.resized();
    if (untouched) refit();
    else apply(true);
  }
  function isFirstView() {
    return !!firstCam && cam.x === firstCam.x && cam.y === firstCam.y && cam.unit === firstCam.unit;
  }

  /* Shows the camera's view; `moving`: a drag, pinch or wheel is under way. The markers' SVG keeps
     its viewBox (changing it cost time for every element in it, drawn or not): the view is the
     transform of the group that holds what is drawn. `svg.view` says what is shown, in map units. */
  function apply(moving) {
    measure();
    clampCamera(cam, size);
    const u = cam.unit;
    if (moving && last && u !== last) trend = last / u;
    last = u;
    Object.assign(svg.view || (svg.view = {}), viewOf(cam, size)).height -= Math.min(covered, size.h) * u;
    // While a drag, pinch or wheel moves the view, the markers' SVG as drawn is moved and scaled (the
    // compositor moves the picture) while it serves (in-view.mjs). Past that, and when the view
    // comes to rest (`rest`), they are drawn for real.
    if (moving && pictureHolds(map.placed, cam, size, map.near && map.near.narrow)) svg.style.transform = pictureTransform(map.placed, cam, size);
    else commit(moving && zoomLevel(u) !== map.groups.level);
    // A wheel has no end of its own: the view is at rest 200 ms after its last notch.
    if (moving && !map.input.gesture()) {
      clearTimeout(settle);
      settle = setTimeout(rest, 200);
    }
    popup.place();
    if (o.world) {
      if (moving) follow();
      else redraw();
    }
    if (o.onView) o.onView(map.placed.unit, svg.view);
  }

  /* Places the group that holds what is drawn for the camera (`placed`), and draws what came within
     reach; `narrow`: a zoom under way, when a quarter of a screen around the view is drawn, and the
     rest 300 ms after. */
  function commit(narrow) {
    const u = cam.unit, v = viewOf(cam, size);
    view.setAttribute("transform", "matrix(" + 1 / u + " 0 0 " + 1 / u + " " + (-v.x / u) + " " + (-v.y / u) + ")");
    map.placed = { x: cam.x, y: cam.y, unit: u, w: size.w, h: size.h };
    if (svg.style.transform) svg.style.transform = "";
    map.names.scaleTo(u);
    if (zoomLevel(u) !== map.groups.level) group(narrow);
    else if (redrawDue(map.near, cam, size, narrow)) map.drawing.draw(narrow);
    // Moved, or covered, without drawing again: the Tab stop goes to a marker still on the screen.
    else map.focus.rove();
    clearTimeout(widen);
    if (map.near.narrow) widen = setTimeout(() => { if (map.near.narrow) map.drawing.draw(false); }, 300);
    map.groups.foresee(u, trend, zoomRange(size));
    // The names are laid out for where the markers are drawn (once the view rests: they wait).
    if (!narrow) map.names.soon();
  }
  /* The markers drawn as the groups of the camera's zoom level; an open popup follows its marker. */
  function group(narrow) {
    const pinned = popup.pinned();
    map.drawing.group(map.groups.at(zoomLevel(map.placed.unit)), narrow);
    if (popup.anchor && popup.anchor.filtered) popup.hide();
    else if (popup.selected) popup.show(popup.anchor.cluster || popup.anchor, pinned);
  }

  /* While the view moves, the world is not drawn again: its layer is moved and scaled where the view
     has gone (drawing the coasts again cost a software renderer a hundred milliseconds a frame), and
     drawn anew when the fingers or the button are lifted, or when the wheel rests. */
  function follow() {
    if (!drawn || drawn.w !== size.w || drawn.h !== size.h) redraw();
    else o.world.style.transform = pictureTransform(drawn, cam, size);
  }
  /* The wheel has rested: the markers and the world are drawn for the view. */
  function rest() {
    if (map.input.gesture()) return;
    if (svg.style.transform) commit();
    if (o.world) redraw();
  }
  /* The fingers or the button are lifted after moving the view (`fingers`: how many are still down):
     the markers are drawn for real, and the world soon after the last. */
  function lifted(fingers) {
    commit();
    if (o.world && !fingers) {
      clearTimeout(settle);
      settle = setTimeout(redraw, 100);
    }
  }
  function redraw() {
    clearTimeout(settle);
    if (drawn && drawn.x === cam.x && drawn.y === cam.y && drawn.unit === cam.unit && drawn.w === size.w && drawn.h === size.h) return;
    drawn = { x: cam.x, y: cam.y, unit: cam.unit, w: size.w, h: size.h };
    Object.assign(o.world.viewBox.baseVal, viewOf(cam, size));
    o.world.style.transform = "";
    map.names.soon();
  }

  /* The first view (camera.mjs) of the markers the search leaves. */
  function fit() {
    popup.hide();
    map.groups.level = null;
    refit();
  }
  function refit() {
    measure();
    fitted = true;
    placing++;
    Object.assign(cam, firstView(shown(), size, band));
    clearEdges();
    apply();
    firstCam = { x: cam.x, y: cam.y, unit: cam.unit };
  }
  /* Takes the markers to show (those not among them are dropped; markers.mjs, take); `refit`: show
     the first view for them; `drawn()`: called once they are drawn. A marker may bring its point as
     `at` ({x, y}); otherwise it is read from its `translate(x y)`. A marker kept keeps the focus and
     its open popup. */
  function setMarkers(list, refit, drawn) {
    map.drawing.take(list);
    map.markers = list;
    if (popup.anchor && list.indexOf(popup.anchor) < 0) popup.hide();
    if (refit && list.length > 2000) {
      // Thousands at once (a login): the first view's zoom now (the element's size sets it), where it
      // looks in idle time (`placeFirst`), its groups in idle time too, then the view shown with them
      // (grouping and drawing them at once was a task of a tenth of a second). Where it looks, worked
      // out here, was 18–30 ms of this task (of 28–50 ms) at 10,000 students: code run for the first
      // time over ten thousand points.
      popup.hide();
      measure();
      fitted = true;
      cam.unit = firstUnit(size, band);
      map.groups.level = zoomLevel(cam.unit);
      const run = ++placing;
      whenIdle(() => placeFirst(run));
      map.groups.renew(list, () => {
        placeFirst(run);
        map.groups.level = null;
        clearEdges();
        apply();
        firstCam = { x: cam.x, y: cam.y, unit: cam.unit };
        if (drawn) drawn();
      });
      return;
    }
    if (refit || !fitted || map.groups.level === null) {
      map.groups.reset(list);
      if (refit || !fitted) fit();
      else apply();
    } else {
      // What is drawn stays until the level drawn is grouped again, in idle time (grouping.mjs).
      map.groups.renew(list, () => group());
    }
    if (drawn) drawn();
  }
  /* Where a login's first view looks (camera.mjs, firstView), for the markers the search leaves then:
     once for the run `run`, in idle time or, if its groups came first, before they are shown; nothing
     once a newer first view was asked for. */
  function placeFirst(run) {
    if (run !== placing) return;
    placing++;
    Object.assign(cam, firstView(shown(), size, band));
    clampCamera(cam, size);
    firstCam = { x: cam.x, y: cam.y, unit: cam.unit };
  }
  /* The first view moved a little, if need be, so that it cuts no cluster's disc at the element's
     edge nor hides one under the map's buttons (camera.mjs, clearView): the groups of its level are
     worked out for it (and kept), the level drawn left as it was. Yours stays whole on the screen. A
     disc's box is its ring's (3 pixels) and a pixel more. */
  function clearEdges() {
    measure();
    const level = zoomLevel(cam.unit), before = map.groups.level, heads = map.groups.at(level), discs = [];
    map.groups.level = before;
    let keep = null;
    for (const hd of heads) {
      if (!hd.members.length) continue;
      const lone = hd.members.length < 2;
      if (lone && !hd.members[0].mine) continue;
      const at = lone ? hd.members[0].at : centreOf(hd, countOf), d = { x: at.x, y: at.y, r: lone ? 8 : clusterRadius(hd.n) + 4 };
      discs.push(d);
      if (lone || hd.mine) keep = d;
    }
    const frame = svg.parentNode.getBoundingClientRect(), controls = [];
    for (const c of svg.parentNode.querySelectorAll(".zoom")) {
      const r = c.getBoundingClientRect();
      if (r.width) controls.push({ left: r.left - frame.left, top: r.top - frame.top, right: r.right - frame.left, bottom: r.bottom - frame.top });
    }
    // A little further out too, at the same level (its groups): an eighth of a doubling at most.
    const units = [1, 2, 3].map((k) => cam.unit * Math.pow(2, k / 32)).filter((u) => zoomLevel(u) === level && u <= zoomRange(size)[1]);
    Object.assign(cam, clearView(cam, size, discs, controls, [cam.unit, ...units], keep));
  }
  /* Leaves the students whose name or place holds `text`; returns how many. The markers drawn show
     it at once; the others' classes follow (students.mjs, markSearch), and the level drawn is grouped
     again in idle time while its groups stay drawn, as for a changed list: at 10,000 students the
     map shown again after a search in the list was one task of 74–214 ms (grouped, drawn and laid
     out at once). */
  function filter(text) {
    const found = filterStudents(map.markers, text);
    if (!fitted || map.groups.level === null) {
      map.groups.reset(map.markers);
      apply();
    } else {
      map.groups.renew(map.markers, () => group());
    }
    markFrom(0);
    return found;
  }
  /* Writes the search into the markers from the `i`th on, in slices of up to 4 ms (the clock read
     every 64 markers, so each slice does some), the first at once and the others in idle time, as
     the groupings ahead are (grouping.mjs): a hundred markers are done at once, ten thousand
     between frames. A new search starts again. */
  function markFrom(i, deadline) {
    const list = map.markers, run = ++marking, until = performance.now() + between(deadline ? deadline.timeRemaining() : 4, 1, 4);
    while (i < list.length && (i & 63 || performance.now() < until)) markSearch(list[i++]);
    if (i < list.length) whenIdle((next) => { if (run === marking) markFrom(i, next); });
  }
  function shown() {
    return map.markers.filter((m) => !m.filtered);
  }
  /* Shows the markers given (or those a search left) whole on the screen, at most as close as the
     map goes. An open popup stays, if its pin is among them (the regrouping closes it otherwise). */
  function fitTo(list) {
    if (!list.length) return;
    measure();
    Object.assign(cam, fitView(list.map((m) => m.at), size));
    apply();
  }
  /* A click on a cluster: zooms in to fit its markers, or, when they stay one cluster there (at the
     closest zoom, or their discs merged), pins its list. A popup open before is left by the person
     (`o.onPopup` hears, and the page's address leaves that pin). */
  function expand(c) {
    const members = c.members;
    Object.assign(cam, fitView(members.map((m) => m.at), size));
    popup.dismiss();
    apply();
    // `members`, not `c.members`: the element may hold another cluster once regrouped.
    const still = members[0].cluster;
    if (still && members.every((m) => m.cluster === still)) popup.show(still, true, true);
    else map.focus.focusOn(members[0].cluster || members[0]);
  }
  /* Zooms in by f (out when below 1) keeping the map point `at` where it is on screen. */
  function zoom(f, at, moving) {
    zoomCamera(cam, size, f, at);
    apply(moving);
  }
  function centre() {
    return { x: cam.x, y: cam.y };
  }

  window.addEventListener("resize", resized);
  if (window.ResizeObserver) new ResizeObserver(resized).observe(svg);

  return {
    setMarkers, filter, fit, fitTo, apply, zoom,
    hide: popup.hide,
    /** Closes the popup, the focus back on its pin if it was in it (as Escape does). */
    close: popup.close,
    /** Opens a marker's or cluster's popup, as a click does; `anchor`: the marker in a cluster asked
     *  for, listed first, its link focused. */
    show(m, anchor) {
      popup.show(m, true, true, anchor);
    },
    /** A sheet is drawn over the element's bottom `px` pixels now (0: none). */
    coverBottom(px) {
      if (px === covered) return;
      covered = px;
      apply();
    },
    /** The whole world's width: the "whole world" button. */
    world() {
      measure();
      popup.hide();
      Object.assign(cam, worldView(size, band));
      apply();
    },
    /** Zooms in (f > 1) or out around the view's centre: the zoom buttons. */
    zoomBy(f) {
      zoom(f, centre());
    },
    /** The names to show (MapLabels.webJSON's data). */
    setNames: map.names.set,
    /** The markers left by the search (all, without one). */
    shown,
    /** The marker or cluster a student's marker is drawn as now, or null. */
    drawnAs: map.drawing.drawnAs,
    /** Centres the view on a map point at `unit` map units per pixel (or the closest allowed). */
    look(x, y, unit) {
      measure();
      cam.x = x;
      cam.y = y;
      if (unit) cam.unit = unit;
      popup.hide();
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
      return popup.anchor;
    },
  };
}
