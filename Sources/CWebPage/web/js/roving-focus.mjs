// The map's keyboard focus among its markers: one marker or cluster on the screen is in the Tab order
// (a roving tabindex), the arrow keys move between them (input.mjs), and the focus follows a marker
// into the cluster it joins, or out of it, as the markers are drawn again.

import { nearestTo, nextThatWay } from "./in-view.mjs";
import { pointOf } from "./markers.mjs";

/** The roving tabindex of the map `map` (map-view.mjs). */
export function rovingFocus(map) {
  // The one marker or cluster in the Tab order.
  let stop = null;
  // Whether the focus is on the map itself for want of a marker on the screen (`focusStop` put it
  // there), not because a click on the map gave it the focus: only then do the keys that move the
  // view hand it back to a marker (`leaveMap`); after a click, the arrows pan, as on any web map.
  let parked = false;
  map.svg.addEventListener("blur", () => { parked = false; });

  function setStop(el) {
    if (stop === el) return;
    if (stop) stop.setAttribute("tabindex", "-1");
    stop = el;
    if (el) el.setAttribute("tabindex", "0");
  }
  /** Puts the focus on a marker or cluster, which takes the Tab stop. */
  function focusOn(el) {
    setStop(el);
    el.focus({ preventScroll: true });
  }
  /** The marker the focus is on (a cluster's first), before the markers are drawn again: they may
   *  take it out of the SVG (into a cluster, or out of reach). */
  function following() {
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest(".marker,.cluster");
    return focused && (focused.members ? focused.members[0] : focused);
  }
  /** Keeps one marker or cluster on the screen in the Tab order: the one there, else the one nearest
   *  the view's centre. The focus follows `follow` (from `following`) to what it became, and goes with
   *  the Tab stop when the view left the marker it was on (the arrows pan past the last one; it left
   *  the SVG): to the map itself when no marker is on the screen, never to one out of sight. */
  function rove(follow) {
    const now = follow && map.drawing.drawnAs(follow);
    if (now && now !== document.activeElement) focusOn(now);
    const carried = (follow && !now) || (stop !== null && stop === document.activeElement);
    if (!stop || !map.drawing.onScreen(stop)) setStop(nearestTo(map.drawing.reachable(), map.cam, pointOf));
    if (carried && stop !== document.activeElement) focusStop();
  }
  /** Puts the focus on the Tab stop, or on the map itself when no marker is on the screen. */
  function rest() {
    rove();
    focusStop();
  }
  function focusStop() {
    (stop || map.svg).focus({ preventScroll: true });
    parked = !stop;
  }
  /** After a key moved the view: the focus the map held for want of a marker goes to the marker now
   *  in the Tab order, when one is on the screen. */
  function leaveMap() {
    if (parked && document.activeElement === map.svg) rest();
  }
  /** The marker or cluster on the screen next from `from` in an arrow key's direction, or null. */
  function neighbour(from, key) {
    return nextThatWay(from, map.drawing.reachable(), key, map.cam.unit, pointOf);
  }
  return { focusOn, following, rove, rest, leaveMap, neighbour };
}
