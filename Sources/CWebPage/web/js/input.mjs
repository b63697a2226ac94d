// What moves the map and opens its markers: zoom by wheel, `+`/`-`, double-click and two-finger pinch;
// pan by drag and the arrow keys; `0`: the first view again. Markers and clusters take the keyboard
// focus (roving-focus.mjs): from one, an arrow goes to the next that way on the screen, and pans where
// there is none (the focus resting on the map itself once none is on the screen, until a key brings
// one back); Enter or Space does what a click does; Escape closes the popup. Markers and clusters are
// found from the event's target: one listener for ten thousand.

import { between, centreKeeping, mapPoint, zoomRange } from "./camera.mjs";

/** The pointer's, the wheel's and the keys' handling for the map `map` (map-view.mjs). */
export function mapInput(map) {
  const svg = map.svg, o = map.o, cam = map.cam, size = map.size, fingers = new Map();
  let drag = null, pinch = null, wheeled = -1e9;

  /* A map point from a pointer's position. */
  function point(ev) {
    const r = map.measure();
    return mapPoint(cam, size, ev.clientX - r.left, ev.clientY - r.top);
  }
  function hit(ev) {
    return ev.target.closest && ev.target.closest(".marker,.cluster");
  }
  /** Whether the view is being moved: markers passing under a resting pointer open no list then. */
  function moving() {
    return !!pinch || !!(drag && drag.moved) || performance.now() - wheeled < 300;
  }
  /** Whether a finger or the button is down on the map (the view may move any time). */
  function gesture() {
    return !!(drag || pinch);
  }

  function clicked(ev) {
    const t = hit(ev);
    if (!t) return;
    ev.stopPropagation();
    if (t.members) map.expand(t);
    else map.popup.show(t, true, true);
  }
  // A marker not drawn takes a click too (a script's, or a test's): its list opens.
  svg.addEventListener("click", clicked);
  map.drawing.stash.addEventListener("click", clicked);
  svg.addEventListener("mouseover", (ev) => {
    const t = hit(ev);
    if (t && !t.members && t !== map.popup.selected && !map.popup.pinned() && !moving()) map.popup.show(t, false);
  });
  svg.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    wheeled = performance.now();
    // Trackpads send many small steps; a mouse wheel's notch zooms by a quarter.
    const f = ev.deltaMode === 0 && Math.abs(ev.deltaY) < 50 ? Math.exp(-ev.deltaY / 100) : ev.deltaY < 0 ? 1.25 : 0.8;
    map.zoom(f, point(ev), true);
  }, { passive: false });
  svg.addEventListener("dblclick", (ev) => {
    if (hit(ev)) return;
    ev.preventDefault();
    map.zoom(2, point(ev));
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
      const f = Array.from(fingers.values()), mid = middle(f), r = map.measure(), rg = zoomRange(size);
      cam.unit = between(pinch.unit * pinch.apart / apart(f), rg[0], rg[1]);
      Object.assign(cam, centreKeeping(pinch.at, mid.clientX - r.left, mid.clientY - r.top, cam.unit, size));
      map.apply(true);
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
    map.apply(true);
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
    if (drag && !drag.moved && !hit(ev)) map.popup.dismiss();
    drag = null;
    if (!fingers.size) svg.classList.remove("dragging");
    if (moved) map.lifted(fingers.size);
  }
  svg.addEventListener("pointerup", endDrag);
  svg.addEventListener("pointercancel", endDrag);

  document.addEventListener("keydown", (ev) => {
    const t = ev.target;
    // Escape on the map's own buttons closes its popup too: Tab leaves the popup for them, and the
    // popup stayed open there with no key to close it.
    if (ev.key === "Escape" && t.closest && t.closest(".zoom") && svg.getClientRects().length) {
      map.popup.dismiss();
      return;
    }
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
    const next = target && /^Arrow/.test(ev.key) && !ev.shiftKey ? map.focus.neighbour(target, ev.key) : null;
    if (next) {
      ev.preventDefault();
      map.focus.focusOn(next);
      return;
    }
    if (ev.key === "Escape") map.popup.dismiss();
    // The focus the map itself held while no marker was on the screen goes to the marker in the Tab
    // order once the key has brought one into view: the arrows step between markers again.
    else if (moveView(ev, step)) map.focus.leaveMap();
  });
  /** Moves the view for `+`, `-`, `0` or an arrow (by `step` map units); whether the key was one. */
  function moveView(ev, step) {
    if (ev.key === "+" || ev.key === "=") map.zoom(1.5, map.centre());
    else if (ev.key === "-") map.zoom(1 / 1.5, map.centre());
    else if (ev.key === "0") map.fit();
    else if (/^Arrow/.test(ev.key)) {
      ev.preventDefault();
      cam.x += ev.key === "ArrowLeft" ? -step : ev.key === "ArrowRight" ? step : 0;
      cam.y += ev.key === "ArrowUp" ? -step : ev.key === "ArrowDown" ? step : 0;
      map.apply();
    } else return false;
    return true;
  }
  return { moving, gesture };
}
