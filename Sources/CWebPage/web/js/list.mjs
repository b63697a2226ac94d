// The list: name, place, link and when each pin was updated, newest first (the order the server
// sends); a row opens its link in a new tab, as the seeds' table does. Each row is a list item holding
// one link, the row itself (a screen reader says "link" and its name; the browser's own ways of opening
// a link work on it), and a button that shows that student's pin on the map (its address, #/pin/ID).
//
// Ten thousand students make ten thousand rows, so only the rows on the screen are made (a virtual
// list: rows of one height, `--row` in app.css, placed in a list as tall as all of them), and the
// search reads each student's key (its name and place folded once, pins.mjs), not the page. The
// keyboard moves through the rows with the arrow keys, Home, End and the page keys (one row in the
// Tab order, and its Map button after it: a roving tabindex); Enter opens a row's link.

import { isMine } from "./pins.mjs";
import { $, state, ui } from "./state.mjs";
import { ago, countText, foldText, isWebLink, noMatchText, shownText } from "./text.mjs";

/** Rows made beyond each edge of the screen, so a scroll shows rows already there. */
const AHEAD = 6;

/** The students the search leaves, the search they are for, the rows made (by position), rows no
 *  longer used, and the position of the row in the Tab order. */
let matches = [], query = null, rowHeight = 52, focusAt = 0;
const rows = new Map(), spare = [];

export function listShown() {
  return !$("list-view").hidden;
}

/** The students changed: the list is drawn again when shown. */
export function refreshList() {
  query = null;
  if (listShown()) draw();
}

/** Leaves the students whose name or place holds `q`; returns how many. */
export function filterList(q) {
  draw(q);
  return matches.length;
}

/** The matches for `q`, worked out again when it or the students changed (`query` null); true when
 *  the search itself changed, so the list starts again from its top. */
let searched = "";
function search(q) {
  const folded = foldText(q.trim());
  if (folded === query) return false;
  query = folded;
  matches = folded ? state.students.filter((s) => s.key.includes(folded)) : state.students;
  const changed = folded !== searched;
  searched = folded;
  if (changed) focusAt = 0;
  focusAt = Math.min(focusAt, Math.max(0, matches.length - 1));
  return changed;
}

/** Makes the rows on the screen (and the one in the Tab order), and reuses the others. */
function draw(q = $("search").value) {
  const view = $("list-view"), ol = $("student-list");
  const focused = ol.contains(document.activeElement) ? document.activeElement.closest("li") : null;
  // The rows' height changes with the screen's width (a phone turned): every row is placed again.
  const height = parseFloat(getComputedStyle(ol).getPropertyValue("--row")) || 52, resized = height !== rowHeight;
  if (resized && focused && focused.index != null) view.scrollTop += focused.index * (height - rowHeight);
  rowHeight = height;
  if (search(q)) view.scrollTop = 0;
  else if (focused && focused.student !== matches[focused.index]) {
    // The students changed: the focused row follows its student, and the list scrolls with it, so
    // the row stays where it was on the screen.
    const at = matches.findIndex((s) => s.objectId === focused.student.objectId);
    if (at >= 0) {
      view.scrollTop += (at - focused.index) * rowHeight;
      focusAt = at;
    }
  }
  ol.style.height = matches.length * rowHeight + "px";
  const top = view.scrollTop - ol.offsetTop;
  const first = Math.max(0, Math.floor(top / rowHeight) - AHEAD);
  const last = Math.min(matches.length, Math.ceil((top + view.clientHeight) / rowHeight) + AHEAD);
  const focusedRow = focused ? focused.index : -1;
  // Only a row on the screen is in the Tab order; one with the focus stays made wherever it is.
  if (focusedRow < 0 && (focusAt < first + AHEAD || focusAt >= last - AHEAD)) focusAt = Math.min(first + (first ? AHEAD : 0), matches.length - 1);
  // A row is its student's (by objectId): when the students change, each row made keeps its student
  // (and the focus, if it has it), moved to where the student is now.
  const made = new Map();
  for (const li of rows.values()) made.set(li.student.objectId, li);
  rows.clear();
  const frag = document.createDocumentFragment();
  const wanted = [];
  for (let i = first; i < last; i++) wanted.push(i);
  if (focusAt >= 0 && (focusAt < first || focusAt >= last)) wanted.push(focusAt);
  for (const i of wanted) {
    let li = made.get(matches[i].objectId);
    if (li) {
      made.delete(matches[i].objectId);
      if (li.student !== matches[i] || li.index !== i || resized) fill(li, matches[i], i);
    } else {
      li = spare.pop() || $("list-entry").content.firstElementChild.cloneNode(true);
      fill(li, matches[i], i);
      frag.appendChild(li);
    }
    rows.set(i, li);
    li.setAttribute("aria-setsize", matches.length);
    tabStop(li, i === focusAt);
  }
  for (const li of made.values()) {
    li.remove();
    spare.push(li);
  }
  ol.appendChild(frag);
  inOrder(ol, focused);
  const empty = $("list-empty");
  empty.textContent = !state.students.length ? "No pins yet. Post yours with the pin button."
    : !matches.length ? noMatchText(q) : "";
  empty.hidden = !!matches.length;
  const n = state.students.length;
  $("list-summary").textContent = query ? countText(matches.length) + " of " + countText(n) + " students"
    : countText(n) + (n === 1 ? " student" : " students") + ", newest first";
}

/** Puts the rows in the order they are seen: a screen reader reads the list in the page's order,
 *  and a row kept for its student, or made at the end, is out of it once the students changed. The
 *  focused row is never moved (a node taken out of the page loses the focus): the others go around it. */
function inOrder(ol, focused) {
  const order = [...rows.keys()].sort((a, b) => a - b).map((i) => rows.get(i));
  if (order.every((li, k) => ol.children[k] === li)) return;
  const at = order.indexOf(focused);
  if (at < 0) {
    ol.append(...order);
    return;
  }
  for (let k = 0; k < at; k++) ol.insertBefore(order[k], focused);
  let previous = focused;
  for (let k = at + 1; k < order.length; k++) {
    previous.after(order[k]);
    previous = order[k];
  }
}

function fill(li, s, i) {
  const row = li.firstElementChild, link = li.querySelector(".link"), time = li.querySelector(".updated");
  const when = Date.parse(s.updatedAt), updated = ago(s.updatedAt);
  // The row's name says what it shows: the name, "you" on yours, the place, and when.
  const said = s.name.slice(0, 120) + (isMine(s) ? ", you, " : ", ") + s.mapString.slice(0, 120) + (updated ? ", " + updated : "");
  li.student = s;
  li.index = i;
  li.dataset.objectId = row.dataset.objectId = s.objectId;
  li.setAttribute("aria-posinset", i + 1);
  li.style.transform = "translateY(" + i * rowHeight + "px)";
  li.querySelector(".name").textContent = s.name;
  li.querySelector(".you").hidden = !isMine(s);
  li.querySelector(".place").textContent = s.mapString;
  link.classList.toggle("nolink", !isWebLink(s.mediaURL));
  if (isWebLink(s.mediaURL)) {
    row.href = s.mediaURL;
    row.target = "_blank";
    row.rel = "noopener noreferrer";
    row.removeAttribute("role");
    row.removeAttribute("aria-disabled");
    link.textContent = s.mediaURL;
    li.dataset.url = s.mediaURL;
    row.setAttribute("aria-label", said + ": open their link");
  } else {
    // No address to go to (none, or one refused): still a row the arrow keys reach, a link that says
    // it cannot be opened.
    for (const name of ["href", "target", "rel"]) row.removeAttribute(name);
    row.setAttribute("role", "link");
    row.setAttribute("aria-disabled", "true");
    link.textContent = shownText(s.mediaURL) || "no link";
    delete li.dataset.url;
    row.setAttribute("aria-label", said + ", no link");
  }
  time.dateTime = s.updatedAt;
  time.textContent = updated;
  time.title = isNaN(when) ? "" : new Date(when).toLocaleString();
  li.lastElementChild.setAttribute("aria-label", "Show " + s.name.slice(0, 120) + " on the map");
}

/** The student of a row's Map button, or null: `target` is what was clicked or pressed. */
export function onMapOf(target) {
  const button = target.closest(".on-map"), li = button && button.closest("li");
  return li && li.student ? li.student : null;
}

export function openRow(li) {
  if (li && li.dataset.url && isWebLink(li.dataset.url)) window.open(li.dataset.url, "_blank", "noopener,noreferrer");
}

/** The arrow keys, Home, End and the page keys move the focus through the rows; Enter opens one. */
export function listKey(ev) {
  const li = ev.target.closest("li");
  if (!li || li.index == null) return;
  if (ev.key === "Enter" || ev.key === " ") {
    // On the Map button, they press it.
    if (onMapOf(ev.target)) return;
    // Space too: it would scroll the list away from the row.
    ev.preventDefault();
    openRow(li);
    return;
  }
  const view = $("list-view"), page = Math.max(1, Math.floor(view.clientHeight / rowHeight) - 1);
  const to = { ArrowDown: li.index + 1, ArrowUp: li.index - 1, Home: 0, End: matches.length - 1,
    PageDown: li.index + page, PageUp: li.index - page }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  focusAt = Math.max(0, Math.min(matches.length - 1, to));
  // Scrolled so the row is whole on the screen.
  const ol = $("student-list"), y = ol.offsetTop + focusAt * rowHeight;
  if (y < view.scrollTop) view.scrollTop = y;
  else if (y + rowHeight > view.scrollTop + view.clientHeight) view.scrollTop = y + rowHeight - view.clientHeight;
  draw();
  const row = rows.get(focusAt);
  if (row) row.firstElementChild.focus();
}

/** A row focused by other means than the keys (a click, a tap) becomes the one in the Tab order, and
 *  its Map button with it: Tab from it reaches that button. */
export function listFocused(ev) {
  const li = ev.target.closest("li");
  if (!li || li.index == null || li.index === focusAt) return;
  const before = rows.get(focusAt);
  if (before) tabStop(before, false);
  focusAt = li.index;
  tabStop(li, true);
}

/** Puts a row, and its Map button after it, in the Tab order or takes them out. */
function tabStop(li, on) {
  li.firstElementChild.tabIndex = li.lastElementChild.tabIndex = on ? 0 : -1;
}

let scrolled = 0;

/** The list scrolled: the rows on the screen are made in the next frame. */
export function listScrolled() {
  if (scrolled) return;
  scrolled = requestAnimationFrame(() => {
    scrolled = 0;
    draw();
  });
}

/** Shows the map or the list (the tabs: WAI-ARIA's tabs pattern, app.mjs). The screen not shown is
 *  inert: nothing on it is in the Tab order. */
export function showTab(which) {
  const list = which === "list";
  $("list-view").hidden = !list;
  $("map-panel").inert = list || !state.session;
  for (const [tab, selected] of [[$("map-tab"), !list], [$("list-tab"), list]]) {
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
  }
  if (list) {
    ui.view.hide();
    query = null;
    draw();
  }
  $("count").hidden = list || !state.session;
}
