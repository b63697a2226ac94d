// The newest pins on the map: loading them (the server's configured count, 1,000 a request, the
// requests at once), watching for changes, drawing them as the export's markers, the search box
// and the count.
//
// Watching costs little: every `poll` seconds the page asks whether its session is live and whether
// the pins changed — with `If-None-Match` when the list came with an ETag (a 304 has no body),
// otherwise by asking for the newest pin alone and comparing it with the one it has. The whole list
// is downloaded again only when something changed, or when the server answers again after it could
// not be reached. A hidden tab does not ask.

import { api, connection, hideAlert, pinsCurrent, showAlert } from "./api.mjs";
import { filterList, listShown, refreshList } from "./list.mjs";
import { readMarker } from "./markers.mjs";
import { failure } from "./messages.mjs";
import { mapX, mapY } from "./mercator.mjs";
import { checkSession } from "./session.mjs";
import { $, settings, state, ui } from "./state.mjs";
import { countText, foldText, noMatchText, shownText } from "./text.mjs";

const SVG_NS = "http://www.w3.org/2000/svg";

function listPath(limit, skip) {
  return "v1/StudentLocation?limit=" + limit + "&order=-updatedAt" + (skip ? "&skip=" + skip : "");
}

function stamp(s) {
  return s ? String(s.objectId) + "@" + String(s.updatedAt) : "";
}

function text(v) {
  return typeof v === "string" ? v : v == null ? "" : String(v);
}

/** A student as the page keeps it: every field text (or a number), whatever the server sent; the
 *  name and place as they may be shown (`shownText`), the link exact (`isWebLink` decides on it). */
export function clean(s) {
  s = s || {};
  return {
    objectId: text(s.objectId), uniqueKey: text(s.uniqueKey), firstName: shownText(text(s.firstName)),
    lastName: shownText(text(s.lastName)), mapString: shownText(text(s.mapString)), mediaURL: text(s.mediaURL),
    latitude: Number(s.latitude), longitude: Number(s.longitude), updatedAt: text(s.updatedAt),
  };
}

export function nameOf(s) {
  return (s.firstName + " " + s.lastName).trim() || "(no name)";
}

export function isMine(s) {
  return !!state.session && s.uniqueKey === state.session.key;
}

/** The whole list: every page asked for at once (the browser sends six at a time), drawn once all
 *  came; a pin moved between two pages' answers is kept once. Resolves once drawn (or the failure
 *  shown). `quiet`: no alert (the login screen's last map, offline). */
export async function loadPins(quiet) {
  const want = settings.pins, epoch = state.epoch, pages = [];
  for (let skip = 0; skip < want; skip += 1000) pages.push(api("GET", listPath(Math.min(1000, want - skip), skip)));
  let answers;
  try {
    answers = await Promise.all(pages);
    for (const a of answers) if (a.status !== 200 || !a.body || !Array.isArray(a.body.results)) throw a;
  } catch (a) {
    if (epoch === state.epoch && !quiet && !a.network) showAlert("Could not load the pins: " + failure(a));
    return;
  }
  if (epoch !== state.epoch) return;
  const seen = new Set(), got = [];
  for (const a of answers) {
    for (const s of a.body.results) {
      const id = s && String(s.objectId);
      if (!seen.has(id)) {
        seen.add(id);
        got.push(s);
      }
    }
  }
  const offline = answers[0].headers.get("X-OnTheMap-Offline");
  state.etag = offline ? null : answers[0].headers.get("ETag");
  if (!offline) pinsCurrent();
  await drawStudents(got);
}

/** The user's own pin, newest first: the one Finish would overwrite. */
export async function loadMine() {
  const s = state.session;
  if (!s) return null;
  try {
    const a = await api("GET", "v1/StudentLocation?uniqueKey=" + encodeURIComponent(s.key) + "&limit=1&order=-updatedAt");
    if (state.session === s && a.status === 200 && a.body && Array.isArray(a.body.results)) {
      state.mine = a.body.results[0] ? clean(a.body.results[0]) : null;
    }
  } catch (e) {
    // no answer: keep what is known
  }
  return state.mine;
}

export function refresh() {
  hideAlert();
  return Promise.all([checkSession(), loadPins(), loadMine()]);
}

// The server answers again after it could not be reached: the pins shown may be old.
connection.onBack = () => {
  if (state.session) loadPins(true);
};

/** Whether the pins changed since they were drawn; draws them again if they did. */
async function checkPins() {
  const epoch = state.epoch;
  try {
    if (state.etag) {
      const a = await api("GET", listPath(Math.min(settings.pins, 1000)), { headers: { "If-None-Match": state.etag }, quiet: true });
      if (epoch === state.epoch && a.status === 304) pinsCurrent();
      if (epoch !== state.epoch || a.status !== 200 || !a.body || !Array.isArray(a.body.results)) return;
      if (settings.pins > 1000 || a.headers.get("X-OnTheMap-Offline")) return loadPins(true);
      state.etag = a.headers.get("ETag");
      await drawStudents(a.body.results);
      return;
    }
    const a = await api("GET", listPath(1), { quiet: true });
    if (epoch !== state.epoch || a.status !== 200 || !a.body || !Array.isArray(a.body.results)) return;
    if (stamp(a.body.results[0]) !== state.newest) return loadPins(true);
    if (!a.headers.get("X-OnTheMap-Offline")) pinsCurrent();
  } catch (e) {
    // no answer: the next check asks again (api.mjs shows the banner meanwhile)
  }
}

export function schedulePoll() {
  stopPoll();
  if (state.session && !document.hidden) state.pollTimer = setTimeout(poll, settings.poll * 1000);
}

export function stopPoll() {
  clearTimeout(state.pollTimer);
  state.pollTimer = 0;
}

async function poll() {
  state.pollTimer = 0;
  if (!state.session || state.polling) return;
  state.polling = true;
  try {
    if (await checkSession(true)) await checkPins();
  } finally {
    state.polling = false;
    schedulePoll();
  }
}

document.addEventListener("visibilitychange", () => {
  if (document.hidden) stopPoll();
  else if (state.session && !state.pollTimer) poll();
});

function svgElement(name) {
  return document.createElementNS(SVG_NS, name);
}

/** Markers as the export draws them (one per student here: students at one point are a cluster at
 *  every zoom), yours last so they are on top. Each student keeps its search key (its name and
 *  place folded once, for the map's search and the list's) and its marker.
 *
 *  A student seen before keeps its object and its marker (the marker is written again only where the
 *  pin changed): a change elsewhere leaves the pin, the row and the popup a person is on as they
 *  are, focus and all, and ten thousand markers are not made again for one that moved. Resolves once
 *  drawn (or left for a newer list). */
export async function drawStudents(list) {
  const run = ++drawing, epoch = state.epoch;
  const before = new Map(state.students.map((s) => [s.objectId, s])), seen = new Set(), students = [], changed = [];
  let until = performance.now() + SLICE, sliced = false;
  for (let i = 0; i < list.length; i++) {
    // Ten thousand markers made at login took a third of a second: made a slice at a time, the page
    // answering between slices; a newer list, or a logout, meanwhile ends this one.
    if ((i & 63) === 63 && performance.now() > until) {
      await nextTask();
      if (run !== drawing || epoch !== state.epoch) return;
      until = performance.now() + SLICE;
      sliced = true;
    }
    const raw = list[i], id = text(raw && raw.objectId), was = before.get(id);
    if (seen.has(id)) continue;
    if (was && sameAsSent(was.sent, raw)) {
      seen.add(id);
      students.push(was);
      continue;
    }
    const s = clean(raw);
    if (!isFinite(s.latitude) || !isFinite(s.longitude)) continue;
    seen.add(id);
    s.sent = raw;
    s.name = nameOf(s);
    s.key = foldText(s.name + "\n" + s.mapString);
    s.marker = markerOf(s, was && was.marker);
    // A new marker is read for the map here, a slice at a time (at login, ten thousand read at once
    // were a third of the task that gave them to the map); one the map has is read when it takes them.
    if (!was) readMarker(s.marker);
    students.push(s);
    changed.push(s.marker);
  }
  // A list that took slices is given to the map in a task of its own: the map's taking ten thousand
  // markers (map-view.mjs, setMarkers) came on top of the last slice's 10 ms.
  if (sliced) {
    await nextTask();
    if (run !== drawing || epoch !== state.epoch) return;
  }
  const same = !changed.length && students.length === state.students.length && students.every((s, i) => s === state.students[i]);
  state.students = students;
  state.newest = stamp(list[0]);
  // Nothing changed (the server answered again after a silence): nothing to draw.
  if (same && students.length) {
    if (ui.pinsDrawn) ui.pinsDrawn();
    return;
  }
  const made = [], yours = [];
  for (const s of students) (isMine(s) ? yours : made).push(s.marker);
  made.push(...yours);
  // The first pins since login: the view slides to where most of them are.
  const first = !!students.length && !state.loaded;
  const q = $("search").value.trim();
  // A search in progress filters the new markers before they are first drawn.
  if (q) for (const g of changed) filterMarker(g, foldText(q));
  mapQuery = $("search").value;
  ui.view.setMarkers(made, first, first ? () => performance.mark("pins-drawn") : null);
  if (first) state.loaded = true;
  refreshList();
  count(q ? state.students.filter((s) => s.key.includes(foldText(q))).length : students.length, q);
  if (ui.pinsDrawn) ui.pinsDrawn();
}

/** How long a slice of `drawStudents`' work runs, in ms, before the page may answer again. */
const SLICE = 10;
let drawing = 0;

/** A task of its own, soon (a message, not a timer: nested timers wait 4 ms each). */
function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(0);
  });
}

/* Whether the server sent a student as before (`a`, as sent then): every field the page shows or
   places the pin by, compared before any is cleaned (cleaning ten thousand took longer than this). */
function sameAsSent(a, b) {
  return !!a && !!b && a.updatedAt === b.updatedAt && a.latitude === b.latitude && a.longitude === b.longitude &&
    a.firstName === b.firstName && a.lastName === b.lastName && a.mapString === b.mapString && a.mediaURL === b.mediaURL &&
    a.uniqueKey === b.uniqueKey;
}

/* A student's marker: `g`, the one it had, written again, or a new one. */
function markerOf(s, g) {
  const mine = isMine(s), x = Math.round(mapX(s.longitude) * 10) / 10, y = Math.round(mapY(s.latitude) * 10) / 10;
  let dot, hit, who;
  if (g) [dot, hit, who] = g.children;
  else {
    g = svgElement("g");
    dot = svgElement("circle");
    hit = svgElement("circle");
    who = svgElement("g");
    g.setAttribute("data-testid", "marker");
    g.setAttribute("tabindex", "-1");
    g.setAttribute("role", "button");
    hit.setAttribute("class", "hit");
    hit.setAttribute("r", "14");
    g.append(dot, hit, who);
  }
  // A marker kept is placed anew when the map draws it again (markers.mjs), not before.
  if (!g.at) g.setAttribute("transform", "translate(" + x + " " + y + ") scale(1)");
  g.setAttribute("class", "marker" + (mine ? " mine" : ""));
  g.setAttribute("data-object-id", s.objectId);
  g.setAttribute("aria-label", s.name.slice(0, 120) + ", " + s.mapString.slice(0, 120));
  g.at = { x, y };
  g.fresh = true;
  dot.setAttribute("r", mine ? "7" : "5");
  who.setAttribute("class", "student" + (mine ? " mine" : ""));
  who.dataset.name = s.name;
  who.dataset.place = s.mapString;
  who.dataset.url = s.mediaURL;
  who.dataset.objectId = s.objectId;
  who.find = s.key;
  return g;
}

/* A new marker, before the map takes it: hidden when the search leaves none of its students. */
function filterMarker(g, q) {
  const who = g.lastChild, out = !who.find.includes(q);
  who.classList.toggle("hidden", out);
  g.classList.toggle("hidden", out);
  g.fresh = true;
}

let searching = 0;
/** The search the map's markers are filtered by (the list's may be ahead of it). */
let mapQuery = "";

/** The search box: the list answers at once (list.mjs); the map, ten thousand markers grouped anew,
 *  when it is the screen shown (at once), or when it is shown next (`syncMapSearch`). */
export function search() {
  const q = $("search").value;
  clearTimeout(searching);
  if (listShown()) count(filterList(q), q);
  else searchMap(q);
}

/** Filters the map's markers, shows the matches whole on the screen once typing pauses, and says how
 *  many. */
function searchMap(q) {
  clearTimeout(searching);
  mapQuery = q;
  const found = ui.view.filter(q);
  count(found, q);
  if (!listShown()) {
    // No match: the whole world, not the last place looked at, empty, under the sentence that says so.
    searching = setTimeout(() => (q.trim() && found ? ui.view.fitTo(ui.view.shown()) : ui.view.fit()), 400);
  }
}

/** Makes the map's markers follow the search box, if they do not yet (before the map is shown). */
export function syncMapSearch() {
  clearTimeout(searching);
  const q = $("search").value;
  if (mapQuery !== q) {
    mapQuery = q;
    ui.view.filter(q);
  }
}

/** The map's count: how many students the search `q` leaves, and "you" while your pin is among them. */
function count(found, q) {
  const n = state.students.length, c = $("count"), you = document.createElement("span"), me = state.students.find(isMine);
  // The page asks for the newest `settings.pins`: when that many came, the server may hold more.
  const newest = n >= settings.pins ? " newest" : "";
  // No match says so in words, as the List and the exported map do, where it said "0 of 10,000".
  c.textContent = q.trim() && !found ? noMatchText(q)
    : (q.trim() ? countText(found) + " of " + countText(n) : countText(n)) + newest + (n === 1 ? " student" : " students");
  if (me && me.key.includes(foldText(q.trim()))) {
    you.className = "you";
    you.textContent = "· ● you";
    c.append(" ", you);
  }
  c.hidden = !state.session || listShown();
}

/** Opens a pin's popup (`#/pin/OBJECTID`): zoomed in until its marker is a cluster of its own (as
 *  close as the map goes), the focus in the popup, on that student's link, first in a cluster's list.
 *  False when no pin shown has that id. */
export function openPin(id) {
  const s = state.students.find((t) => t.objectId === id);
  if (!s) return false;
  syncMapSearch();
  const m = s.marker;
  if (m.filtered) {
    $("search").value = "";
    search();
  }
  ui.view.look(m.at.x, m.at.y, Math.min(ui.view.camera().unit, 40));
  // Closer, until it is alone or the map goes no closer (the camera keeps its closest zoom).
  for (let unit = ui.view.camera().unit; m.cluster; unit = ui.view.camera().unit) {
    ui.view.look(m.at.x, m.at.y, unit / 2);
    if (ui.view.camera().unit === unit) break;
  }
  ui.view.show(ui.view.drawnAs(m) || m, m);
  return true;
}
