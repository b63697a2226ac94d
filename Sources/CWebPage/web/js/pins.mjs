// The newest pins on the map: loading them (the server's configured count, 1,000 a request),
// watching for changes, drawing them as the export's markers, the search box and the count.
//
// Watching costs little: every `poll` seconds the page asks whether its session is live and whether
// the pins changed — with `If-None-Match` when the list came with an ETag (a 304 has no body),
// otherwise by asking for the newest pin alone and comparing it with the one it has. The whole list
// is downloaded again only when something changed. A hidden tab does not ask.

import { api, hideAlert, showAlert } from "./api.mjs";
import { drawList, filterList } from "./list.mjs";
import { failure } from "./messages.mjs";
import { mapX, mapY } from "./mercator.mjs";
import { checkSession } from "./session.mjs";
import { $, settings, state, ui } from "./state.mjs";

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

/** A student as the page keeps it: every field text (or a number), whatever the server sent. */
export function clean(s) {
  s = s || {};
  return {
    objectId: text(s.objectId), uniqueKey: text(s.uniqueKey), firstName: text(s.firstName), lastName: text(s.lastName),
    mapString: text(s.mapString), mediaURL: text(s.mediaURL), latitude: Number(s.latitude), longitude: Number(s.longitude),
    updatedAt: text(s.updatedAt),
  };
}

export function nameOf(s) {
  return (s.firstName + " " + s.lastName).trim() || "(no name)";
}

export function isMine(s) {
  return !!state.session && s.uniqueKey === state.session.key;
}

/** The whole list, page after page; resolves once drawn (or the failure shown). */
export async function loadPins() {
  const want = settings.pins, epoch = state.epoch;
  let got = [], etag = null;
  try {
    for (let skip = 0; ;) {
      const n = Math.min(1000, want - skip);
      const a = await api("GET", listPath(n, skip));
      if (a.status !== 200 || !a.body || !Array.isArray(a.body.results)) throw a;
      if (!skip) etag = a.headers.get("ETag");
      got = got.concat(a.body.results);
      skip += n;
      if (a.body.results.length !== n || got.length >= want) break;
    }
  } catch (a) {
    if (epoch === state.epoch) showAlert("Could not load the pins: " + failure(a));
    return;
  }
  if (epoch !== state.epoch) return;
  state.etag = etag;
  drawStudents(got);
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

/** Whether the pins changed since they were drawn; draws them again if they did. */
async function checkPins() {
  const epoch = state.epoch;
  try {
    if (state.etag) {
      const a = await api("GET", listPath(Math.min(settings.pins, 1000)), { headers: { "If-None-Match": state.etag } });
      if (epoch !== state.epoch || a.status !== 200 || !a.body || !Array.isArray(a.body.results)) return;
      if (settings.pins > 1000) return loadPins();
      state.etag = a.headers.get("ETag");
      drawStudents(a.body.results);
      return;
    }
    const a = await api("GET", listPath(1));
    if (epoch !== state.epoch || a.status !== 200 || !a.body || !Array.isArray(a.body.results)) return;
    if (stamp(a.body.results[0]) !== state.newest) return loadPins();
  } catch (e) {
    // no answer: the next check asks again
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
    if (await checkSession()) await checkPins();
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
 *  every zoom), yours last so they are on top. */
export function drawStudents(list) {
  const students = list.map(clean).filter((s) => isFinite(s.latitude) && isFinite(s.longitude));
  state.students = students;
  state.newest = stamp(list[0]);
  state.listDirty = true;
  const frag = document.createDocumentFragment(), made = [];
  for (const s of students.filter((s) => !isMine(s)).concat(students.filter(isMine))) {
    const mine = isMine(s), g = svgElement("g"), dot = svgElement("circle"), hit = svgElement("circle"), who = svgElement("g");
    const name = nameOf(s), x = Math.round(mapX(s.longitude) * 10) / 10, y = Math.round(mapY(s.latitude) * 10) / 10;
    g.setAttribute("class", "marker" + (mine ? " mine" : ""));
    g.setAttribute("data-testid", "marker");
    g.setAttribute("data-object-id", s.objectId);
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.setAttribute("aria-label", name.slice(0, 120) + ", " + s.mapString.slice(0, 120));
    g.setAttribute("transform", "translate(" + x + " " + y + ") scale(1)");
    g.at = { x, y };
    dot.setAttribute("r", mine ? "7" : "5");
    hit.setAttribute("r", "14");
    hit.setAttribute("class", "hit");
    who.setAttribute("class", "student" + (mine ? " mine" : ""));
    who.dataset.name = name;
    who.dataset.place = s.mapString;
    who.dataset.url = s.mediaURL;
    who.dataset.objectId = s.objectId;
    g.append(dot, hit, who);
    frag.appendChild(g);
    made.push(g);
  }
  $("markers").replaceChildren(frag);
  // The first pins since login: the view slides to where most of them are.
  const first = !!students.length && !state.loaded;
  ui.view.setMarkers(made, first);
  if (first) {
    state.loaded = true;
    performance.mark("pins-drawn");
  }
  if (!$("list-view").hidden) drawList();
  if ($("search").value.trim()) search();
  else count(students.length, "");
}

export function search() {
  const q = $("search").value, found = ui.view.filter(q);
  if (!$("list-view").hidden) filterList(q);
  count(found, q);
}

function count(found, q) {
  const n = state.students.length, c = $("count"), you = document.createElement("span");
  c.textContent = (q.trim() ? found + " of " + n : String(n)) + (n === 1 ? " student" : " students");
  if (state.students.some(isMine)) {
    you.className = "you";
    you.textContent = "· ● you";
    c.append(" ", you);
  }
  c.hidden = !state.session || !$("list-view").hidden;
}
