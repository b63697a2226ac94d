// Posting your place, as the seeds do it: place and link → "Find on map" (the server's gazetteer,
// `GET /v1/geocode`) → the place on the map, with the other candidates to pick from → Finish posts
// the pin, or asks before it replaces the one you have and then PUTs it. Cancel puts the map back as
// it was. The pin's `mapString` is the picked place's `label`, exactly as the server names it (the
// page names no place itself).
//
// While a place is previewed the students' markers are hidden and the candidate is drawn as a pin
// that keeps its size on screen (`followZoom`), centred in the part of the map the form leaves, at a
// zoom that shows the coasts and borders around it (an area of 12,000 × 9,000 map units).

import { api, hideAlert, showAlert, toast } from "./api.mjs";
import { cover } from "./cover.mjs";
import { showTab } from "./list.mjs";
import { failure, linkProblem, overwriteQuestion, postedText } from "./messages.mjs";
import { mapX, mapY } from "./mercator.mjs";
import { loadMine, loadPins } from "./pins.mjs";
import { expired, loadProfile } from "./session.mjs";
import { $, state, ui } from "./state.mjs";
import { hiddenControl, isWebLink, shownText } from "./text.mjs";

const SVG_NS = "http://www.w3.org/2000/svg";
const PIN_PATH = "M12 2a7 7 0 0 0-7 7c0 5.25 7 13 7 13s7-7.75 7-13a7 7 0 0 0-7-7zm0 9.5a2.5 2.5 0 1 1 0-5 2.5 2.5 0 0 1 0 5z";
const posting = { places: [], chosen: 0, link: "", camera: null, pending: null };

/** The candidate's layer over the markers. */
export const previewLayer = document.createElementNS(SVG_NS, "g");
previewLayer.setAttribute("id", "preview");

/* On a phone the form is a sheet over the bottom of the map (app.css, under 640 pixels): while it is
   open, the zoom buttons under it are inert, and the map's Tab stop is a marker above it, so no Tab
   stop hides under the sheet. The map above it still moves under a finger, to look around the place
   found. The sheet grows and shrinks with its steps: the map follows its height. */
const sheet = matchMedia("(max-width: 640px)");
function coverMap() {
  const covering = !$("post").hidden && sheet.matches;
  cover(document.querySelector("#map-panel .zoom"), "post", covering);
  // The map's box, not its markers' SVG, which a drag or pinch under way moves and scales; read only
  // while covered (each read lays the page out).
  ui.view.coverBottom(covering ? Math.max(0, $("map").parentNode.getBoundingClientRect().bottom - $("post").getBoundingClientRect().top) : 0);
}
sheet.addEventListener("change", coverMap);
if (window.ResizeObserver) new ResizeObserver(coverMap).observe($("post"));

export function openPost() {
  if (!state.session) return;
  if (!$("post").hidden) return;
  hideAlert();
  showTab("map");
  ui.view.hide();
  posting.camera = posting.camera || ui.view.camera();
  $("post").hidden = false;
  coverMap();
  postStep("ask");
  if (!$("post-link").value && state.mine && isWebLink(state.mine.mediaURL)) $("post-link").value = state.mine.mediaURL;
  $("post-place").focus();
  loadMine();
}

/** Closes the form, and an alert about it; `restore`: the map as it was before (Cancel); `focus`:
 *  the focus back on the Post button that opened it. */
export function closePost(restore, focus) {
  const open = !$("post").hidden;
  if (open) hideAlert();
  $("post").hidden = true;
  coverMap();
  postStep("ask");
  if ($("overwrite").open) $("overwrite").close("keep");
  if (restore && posting.camera) ui.view.camera(posting.camera);
  posting.camera = null;
  if (open && focus) $("post-open").focus();
}

function postStep(step) {
  const pick = step === "pick";
  $("post-ask").hidden = pick;
  $("post-pick").hidden = !pick;
  $("post-find").hidden = pick;
  $("post-finish").hidden = !pick;
  $("post-title").textContent = pick ? "Is this the place?" : "Where are you?";
  $("map").classList.toggle("previewing", pick);
  if (!pick) {
    previewLayer.replaceChildren();
    $("post-candidates").replaceChildren();
  }
}

export async function find(ev) {
  ev.preventDefault();
  if ($("post-find").hidden) return;
  const place = $("post-place").value.trim(), link = $("post-link").value.trim();
  if (!place) {
    showAlert("Enter your place: a city and its country, such as \u201cLima, Peru\u201d.");
    $("post-place").focus();
    return;
  }
  // Pasted unseen with a place, a control character split "Pa^[]0;x^Gris" into words that matched
  // Ris-Orangis (the server refuses it too).
  const control = hiddenControl(place);
  if (control) {
    showAlert("The place holds a control character (" + control + "), which no place name has: type it again rather than paste it.");
    $("post-place").focus();
    return;
  }
  const problem = linkProblem(link, isWebLink);
  if (problem) {
    showAlert(problem);
    $("post-link").focus();
    return;
  }
  hideAlert();
  $("post-find").disabled = true;
  const epoch = state.epoch;
  try {
    const a = await api("GET", "v1/geocode?q=" + encodeURIComponent(place) + "&limit=5", { auth: true });
    if (epoch !== state.epoch) return;
    if (a.status === 401) {
      expired();
      return;
    }
    if (a.status !== 200 || !a.body || !Array.isArray(a.body.results)) {
      showAlert("Could not look the place up: " + failure(a));
      return;
    }
    const places = a.body.results.filter((p) => p && typeof p.label === "string" && isFinite(p.latitude) && isFinite(p.longitude));
    if (!places.length) {
      showAlert("No place matches \u201c" + shownText(place) + "\u201d. Try a city and its country, such as \u201cLima, Peru\u201d.");
      // The place is what to change, wherever the focus was (Enter in the link field).
      $("post-place").focus();
      return;
    }
    posting.places = places;
    posting.link = link;
    drawCandidates();
    postStep("pick");
    choose(0);
    $("post-finish").focus();
  } catch (a) {
    showAlert("Could not look the place up: " + failure(a), a.network);
  } finally {
    $("post-find").disabled = false;
    // Find had the focus, and lost it when it was disabled: a failed lookup puts it back in the
    // place, the thing to change.
    if (document.activeElement === document.body && !$("post").hidden) $("post-place").focus();
  }
}

function drawCandidates() {
  const ul = $("post-candidates");
  ul.replaceChildren(...posting.places.map((p, i) => {
    const li = document.createElement("li"), b = document.createElement("button"), label = document.createElement("strong");
    b.type = "button";
    b.setAttribute("data-testid", "post-candidate");
    b.setAttribute("aria-pressed", "false");
    label.textContent = p.label;
    b.append(label);
    b.addEventListener("click", () => choose(i));
    li.append(b);
    return li;
  }));
  ul.hidden = posting.places.length < 2;
  $("post-picked").hidden = !ul.hidden;
}

/* The candidates are one stop for Tab (the chosen one, just before Cancel and Finish) and the arrow keys
   move between them, choosing as they go, as a group of radio buttons does. */
$("post-candidates").addEventListener("keydown", (ev) => {
  const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[ev.key];
  if (!step || posting.places.length < 2) return;
  ev.preventDefault();
  const n = posting.places.length, i = (posting.chosen + step + n) % n;
  choose(i);
  $("post-candidates").querySelectorAll("button")[i].focus();
});

function choose(i) {
  posting.chosen = i;
  const p = posting.places[i];
  $("post-candidates").querySelectorAll("button").forEach((b, j) => {
    b.setAttribute("aria-pressed", String(j === i));
    b.tabIndex = j === i ? 0 : -1;
  });
  $("post-picked").textContent = p.label;
  preview(p);
}

function preview(p) {
  const g = document.createElementNS(SVG_NS, "g"), pin = document.createElementNS(SVG_NS, "path");
  const x = mapX(p.longitude), y = mapY(p.latitude);
  const r = $("map").getBoundingClientRect(), f = $("post").getBoundingClientRect();
  const u = Math.sqrt(12000 * 9000 / Math.max(r.width * r.height, 1));
  let dx = 0, dy = 0;
  g.setAttribute("class", "candidate");
  g.setAttribute("transform", "translate(" + x + " " + y + ") scale(1)");
  pin.setAttribute("d", PIN_PATH);
  pin.setAttribute("transform", "translate(-12 -22) scale(1.4)");
  g.append(pin);
  previewLayer.replaceChildren(g);
  // Centred in what the form leaves of the map: above a sheet, beside a panel.
  if (f.width >= r.width * 0.9) dy = (r.bottom - f.top) / 2;
  else dx = -(f.right - r.left) / 2;
  ui.view.look(x + dx * u, y + dy * u, u);
}

/** The candidate keeps its size on screen at every zoom. */
export function followZoom(unit) {
  const c = previewLayer.firstChild;
  if (c) c.transform.baseVal.getItem(1).setScale(unit, unit);
}

export async function finish() {
  const p = posting.places[posting.chosen];
  if (!p || !state.session) return;
  $("post-finish").disabled = true;
  const mine = await loadMine();
  if (!state.session) return;
  if (!mine) {
    send(null, p);
    return;
  }
  posting.pending = { mine, place: p };
  $("overwrite-text").textContent = overwriteQuestion(mine, p.label, posting.link);
  $("overwrite").returnValue = "";
  $("overwrite").showModal();
}

/** The overwrite dialog closed: replace, or keep the pin. */
export function answered() {
  const pending = posting.pending;
  posting.pending = null;
  if (pending && $("overwrite").returnValue === "replace") send(pending.mine, pending.place);
  else {
    $("post-finish").disabled = false;
    if (!$("post").hidden) $("post-finish").focus();
  }
}

async function send(mine, p) {
  const s = state.session, epoch = state.epoch;
  const body = {
    uniqueKey: s.key, firstName: s.first || "", lastName: s.last || "", mapString: p.label, mediaURL: posting.link,
    latitude: Number(p.latitude), longitude: Number(p.longitude),
  };
  try {
    if (!body.firstName) {
      await loadProfile();
      body.firstName = s.first;
      body.lastName = s.last;
    }
    const a = await api(mine ? "PUT" : "POST", mine ? "v1/StudentLocation/" + encodeURIComponent(mine.objectId) : "v1/StudentLocation",
      { auth: true, body });
    if (epoch !== state.epoch) return;
    if (a.status === 401) {
      expired();
      return;
    }
    if (a.status !== 200 && a.status !== 201) {
      showAlert("Could not post your pin: " + failure(a));
      return;
    }
    posting.camera = null;
    closePost(false);
    $("post-place").value = "";
    toast(postedText(mine, p.label, body.mediaURL));
    await Promise.all([loadPins(), loadMine()]);
    // Your pin, its popup open and the focus in it; the address is the pin's, in place of #/post.
    const id = mine ? mine.objectId : a.body && a.body.objectId;
    if (id) ui.go({ view: "pin", id: String(id) }, true);
    else ui.view.look(mapX(body.longitude), mapY(body.latitude));
  } catch (a) {
    showAlert("Could not post your pin: " + failure(a), a.network);
  } finally {
    $("post-finish").disabled = false;
    // A post that failed leaves the form open: the focus, which the disabled Finish or the closed
    // question let fall to the page, goes back to Finish to try again.
    if (!$("post").hidden && (!document.activeElement || document.activeElement === document.body)) $("post-finish").focus();
  }
}
