// The map's popup: the students of a marker or cluster, beside it. Hovering lists them; a click, Enter
// or an address pins the list (it stays when the pointer leaves) and puts the focus in it; Escape,
// Close or a tap beside it closes it and puts the focus back on its pin. An open list follows its
// marker (`anchor`) into and out of clusters as the zoom changes (map-view.mjs shows it again).

import { screenPoint } from "./camera.mjs";
import { cover } from "./cover.mjs";
import { pointOf, radiusOf } from "./markers.mjs";
import { sharedPlace, shownStudents } from "./students.mjs";
import { isWebLink, shownText } from "./text.mjs";

/** The popup of the map `map` (map-view.mjs): its elements are `o.popup`, `o.heading`, `o.list`,
 *  `o.entry` (a list item to copy) and `o.close`; `o.controls` (optional), the map's buttons it may
 *  be drawn over (cover.mjs). `selected`: the marker or cluster it is open on; `anchor`: the marker
 *  it follows. */
export function mapPopup(map) {
  const o = map.o, popup = o.popup, heading = o.heading, list = o.list, entry = o.entry;
  // What the list shows, and the popup's size, read once after the list changes.
  let showing = null, box = null;
  const p = { selected: null, anchor: null, show, close, dismiss, hide, place, pinned, resized };

  function item(s) {
    const li = entry.cloneNode(true), a = li.querySelector("a"), url = s.dataset.url || "";
    li.student = s;
    li.querySelector(".name").textContent = s.dataset.name;
    li.querySelector(".you").hidden = !s.classList.contains("mine");
    li.querySelector(".place").textContent = s.dataset.place;
    a.textContent = shownText(url);
    if (isWebLink(url)) a.href = url;
    // The server's page has a button to copy the pin's address (app.mjs); the exported map's has not.
    const copy = li.querySelector(".copy-link");
    if (copy) copy.setAttribute("aria-label", "Copy link to the pin of " + s.dataset.name);
    return li;
  }
  /** Opens the popup on a marker or cluster; `pinned`: it stays when the pointer leaves; `chosen`: the
   *  person opened it (a click, Enter, an address), so the focus goes into it; `anchor`: the marker
   *  in a cluster asked for (an address), listed first. A popup shown again as the markers regroup
   *  or change leaves the focus where it is, on the same student's link (or button) if the list is
   *  written again. */
  function show(m, pinned, chosen, anchor) {
    if (p.selected && p.selected !== m) p.selected.classList.remove("selected");
    p.selected = m;
    m.classList.add("selected");
    if (!m.members) p.anchor = m;
    else if (anchor && m.members.indexOf(anchor) >= 0) p.anchor = anchor;
    else if (m.members.indexOf(p.anchor) < 0) p.anchor = m.members[0];
    popup.dataset.pinned = pinned ? "1" : "";
    // The student followed first, then the others.
    const all = shownStudents(m), first = m.members ? shownStudents(p.anchor) : [];
    const here = first.length ? first.concat(all.filter((s) => first.indexOf(s) < 0)) : all;
    // The list is written again only when it lists others, or what it says of them changed (a pin
    // moved keeps its element): a zoom shows it again at every step.
    const said = here.map(saying);
    if (!showing || showing.cluster !== !!m.members || showing.whole !== !!m.whole || showing.here.length !== here.length
        || here.some((s, i) => s !== showing.here[i] || said[i] !== showing.said[i])) {
      const at = list.contains(document.activeElement) ? document.activeElement : null;
      const focused = at ? at.closest("li").student : null, sameKind = at && at.matches(".copy-link") ? ".copy-link" : "a[href]";
      showing = { cluster: !!m.members, whole: !!m.whole, here, said };
      heading.textContent = headingOf(m, here);
      heading.hidden = here.length < 2;
      list.replaceChildren(...here.map(item));
      box = null;
      if (focused && !chosen) {
        const again = Array.from(list.children).find((li) => li.student === focused);
        ((again && again.querySelector(sameKind)) || list.querySelector("a[href]") || o.close).focus({ preventScroll: true });
      }
    }
    popup.setAttribute("aria-label", here.length === 1 ? here[0].dataset.name + ", " + here[0].dataset.place : heading.textContent);
    popup.hidden = false;
    place();
    // Opened on purpose: the focus goes into it, to the link of the student first in it, else its
    // Close; the list scrolled to its top, where that student is.
    if (chosen) {
      list.scrollTop = 0;
      ((list.firstElementChild && list.firstElementChild.querySelector("a[href]")) || o.close).focus({ preventScroll: true });
      if (o.onPopup) o.onPopup(m, pinned);
    }
  }
  /** What the popup's entry for a student shows, to tell when it must be written again. */
  function saying(s) {
    return s.dataset.name + "\n" + s.dataset.place + "\n" + (s.dataset.url || "") + "\n" + s.classList.contains("mine");
  }
  /* What heads a list of several: where they are, as their pins name it, when zooming cannot tell
     them apart (one point, or a cluster that stays one at the closest zoom); "near here" for a
     cluster zooming splits, its students in places of their own. */
  function headingOf(m, here) {
    const place = m.members && !m.whole ? "" : sharedPlace(here);
    return here.length + (place ? " students in " + place : m.members ? " students near here" : " students here");
  }
  /** Closes the popup; the focus, if it was in it, goes back to its pin (or the cluster it is in), and
   *  while that is not drawn (the markers being grouped again for a new list), to the map's Tab stop. */
  function close() {
    const a = p.anchor, had = popup.contains(document.activeElement);
    const back = had && a ? map.drawing.drawnAs(a) : null;
    dismiss();
    if (back) map.focus.focusOn(back);
    else if (had) map.focus.rest();
  }
  /** Closed by the person (Close, Escape, a tap beside it), not by a change of view: `o.onPopup` hears. */
  function dismiss() {
    const open = !popup.hidden;
    hide();
    if (open && o.onPopup) o.onPopup(null, false);
  }
  function hide() {
    popup.hidden = true;
    cover(o.controls, "popup", false);
    popup.dataset.pinned = "";
    if (p.selected) p.selected.classList.remove("selected");
    p.selected = p.anchor = null;
    showing = null;
  }
  /** Whether the popup stays when the pointer leaves. */
  function pinned() {
    return !!popup.dataset.pinned;
  }
  /** The map's element changed size: the popup's is read again. */
  function resized() {
    box = null;
  }
  /** Beside the marker or cluster, from where the camera puts it (reading where the browser drew it
   *  made it lay the page out again at every frame), kept inside the map and off the marker: to its
   *  right, else its left, below, above. On a phone the popup is most of the screen's width, and
   *  kept inside it on the right it covered the cluster it lists. */
  function place() {
    const m = p.selected, size = map.size;
    if (!m || popup.hidden) return;
    const at = screenPoint(map.cam, size, pointOf(m)), r = radiusOf(m) * map.placed.unit / map.cam.unit, gap = r + 8;
    if (!box) box = { w: popup.offsetWidth, h: popup.offsetHeight, controls: controlsBox() };
    const inside = (left, top) => ({
      left: Math.max(Math.min(left, size.w - box.w - 4), 4), top: Math.max(Math.min(top, size.h - box.h - 4), 4),
    });
    const clear = (c) => c.left >= at.x + r || c.left + box.w <= at.x - r || c.top >= at.y + r || c.top + box.h <= at.y - r;
    const candidates = [
      inside(at.x + gap, at.y - gap), inside(at.x - gap - box.w, at.y - gap),
      inside(at.x - box.w / 2, at.y + gap), inside(at.x - box.w / 2, at.y - gap - box.h),
    ];
    const c = candidates.find(clear) || candidates[0];
    popup.style.left = c.left + "px";
    popup.style.top = c.top + "px";
    // On a phone the popup is most of the screen's width, and may be drawn over the zoom buttons.
    const z = box.controls;
    cover(o.controls, "popup", !!z && c.left < z.left + z.w && z.left < c.left + box.w && c.top < z.top + z.h && z.top < c.top + box.h);
  }
  /** Where the map's buttons are, in the popup's frame (both are placed in the map's panel). */
  function controlsBox() {
    const z = o.controls;
    return z && z.offsetParent && z.offsetParent === popup.offsetParent
      ? { left: z.offsetLeft, top: z.offsetTop, w: z.offsetWidth, h: z.offsetHeight } : null;
  }

  o.close.addEventListener("click", close);
  popup.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape") return;
    ev.stopPropagation();
    close();
  });
  return p;
}
