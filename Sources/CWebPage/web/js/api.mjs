// Requests to the API, the busy bar, whether the server can be reached, and the page's messages (an
// alert, a toast, the banner while the server cannot be reached).

import { $, state } from "./state.mjs";
import { sinceText } from "./text.mjs";

let busy = 0;

/** The server as the page last saw it: `up`, and since when it could not be reached (`since`, a
 *  time) when it is not. `onBack`: what to do once it answers again (pins.mjs reloads the pins). */
export const connection = { up: true, since: 0, onBack: null };

/** One request to the API, with the busy bar shown while it runs. Resolves with {status, headers,
 *  body} (the XSSI prefix stripped, JSON parsed) for any answer; rejects with {network: true} when
 *  none came. `o.auth`: send the session; `o.body`: JSON to send; `o.headers`: more headers;
 *  `o.quiet`: no busy bar, for the checks the page makes by itself every few seconds (the bar and
 *  the page's `aria-busy` coming and going each time told a person, and a screen reader, of work
 *  they had not asked for, and each time cost the map a frame or two).
 *
 *  An answer the service worker gave from its copy (sw.js: the server could not be reached) carries
 *  `X-OnTheMap-Offline`, the time of that copy: the page says it is offline since then. */
export async function api(method, path, o = {}) {
  const headers = { "Accept": "application/json" };
  if (o.body !== undefined) headers["Content-Type"] = "application/json";
  if (o.auth && state.session) headers["X-OnTheMap-Session"] = state.session.id;
  Object.assign(headers, o.headers || {});
  const shown = o.quiet ? 0 : 1;
  setBusy(shown);
  try {
    let answer, text = "";
    try {
      answer = await fetch(path, {
        method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body),
        credentials: "same-origin", cache: "no-store",
      });
      text = await answer.text();
    } catch (e) {
      unreachable(0);
      throw { network: true };
    }
    const copied = answer.headers.get("X-OnTheMap-Offline");
    if (copied) unreachable(Date.parse(copied) || 0);
    else reached();
    if (text.slice(0, 5) === ")]}'\n") text = text.slice(5);
    let body = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch (e) {
      body = null;
    }
    return { status: answer.status, headers: answer.headers, body };
  } finally {
    setBusy(-shown);
  }
}

function setBusy(d) {
  if (!d) return;
  busy = Math.max(0, busy + d);
  $("busy").hidden = !busy;
  document.body.setAttribute("aria-busy", busy ? "true" : "false");
}

/** What runs once, when the server answers again (`whenBack`). */
const backOnce = [];

/** Runs `fn` once, when the server answers again (the login screen's "Cannot reach the server"). */
export function whenBack(fn) {
  backOnce.push(fn);
}

/** The server answered: the banner goes, and what was waiting for it runs. */
function reached() {
  if (connection.up) return;
  connection.up = true;
  connection.since = 0;
  $("offline").hidden = true;
  if (unanswered) hideAlert();
  if (connection.onBack) connection.onBack();
  for (const fn of backOnce.splice(0)) fn();
}

/** How often the server is asked whether it is back, while it cannot be reached. */
const PROBE_MS = 5000;
let probing = 0;

/** While the server cannot be reached, it is asked every few seconds whether it is back, so the
 *  banner and the alert go by themselves on every screen: logged out, nothing else asks it. */
function probeSoon() {
  if (probing) return;
  probing = setTimeout(() => {
    probing = 0;
    if (!connection.up) serverAnswers();
  }, PROBE_MS);
}

/** Asks the server whether it answers (its `healthz`, which the service worker leaves to the
 *  network), and says so either way: a page opened while the server is down says it at once, not
 *  after someone typed a password. Resolves with whether it answered. */
export async function serverAnswers() {
  try {
    await fetch("healthz", { cache: "no-store", credentials: "same-origin" });
  } catch (e) {
    unreachable(0);
    return false;
  }
  reached();
  return true;
}

/** When the pins shown were last known to be the server's newest: a list fetched, or a poll that
 *  found nothing new. Kept across reloads (a time, nothing of the session): a poll's "nothing new"
 *  leaves the service worker's copy, and the time it was made, as they were, so a page reloaded
 *  offline said it had been offline since that copy, hours before the server last answered. */
const CURRENT = "onthemap.pins-current";
export function pinsCurrent() {
  try {
    localStorage.setItem(CURRENT, String(Date.now()));
  } catch (e) {
    // storage refused (a private window's quota): the copy's own time is said instead
  }
}
function lastCurrent() {
  try {
    return Number(localStorage.getItem(CURRENT)) || 0;
  } catch (e) {
    return 0;
  }
}

/** No answer (or only the service worker's copy, made at `copied`): says so until the server
 *  answers again, and, with pins shown, since when: the time the copy's pins were last known current. */
function unreachable(copied) {
  const current = copied && Math.max(copied, lastCurrent());
  if (connection.up) {
    connection.up = false;
    connection.since = current || Date.now();
  } else if (current && current < connection.since) {
    connection.since = current;
  }
  const back = "This message goes away once the server answers again.";
  // No pins to show (the login screen after Log out, which deleted the copy): since when says nothing.
  if (!copied && !state.students.length) {
    $("offline-text").replaceChildren("Cannot reach the server. " + back);
  } else {
    const at = document.createElement("time");
    at.dateTime = new Date(connection.since).toISOString();
    at.textContent = sinceText(connection.since);
    $("offline-text").replaceChildren("Cannot reach the server since ", at, ": showing the pins seen then. " + back);
  }
  $("offline").hidden = false;
  probeSoon();
}

/** Whether the alert shown is about the server not answering: it goes once the server answers. */
let unanswered = false;

/** An alert, until dismissed or the next action; `network`: it says the server could not be reached
 *  (a failure with `network`), so it goes by itself once the server answers again. */
export function showAlert(text, network) {
  $("alert-text").textContent = text;
  $("alert").hidden = false;
  unanswered = !!network;
}

/** The last element outside the alert that had the focus. */
let focusBefore = null;
document.addEventListener("focusin", (ev) => {
  if (!$("alert").contains(ev.target)) focusBefore = ev.target;
});

/** Where the focus goes when the alert's own × closes it (the button is hidden with it): back to the
 *  last thing focused outside the alert (the field it asked to change), if that is still seen; null
 *  otherwise. */
export function focusBeforeAlert() {
  const before = focusBefore;
  return before && before.isConnected && !before.closest("[hidden],[inert]") && !before.disabled && before.getClientRects().length ? before : null;
}

export function hideAlert() {
  $("alert").hidden = true;
  unanswered = false;
}

let toastTimer = 0, toastFrame = 0;

/** A message that goes by itself after four seconds. Said by a screen reader through `#toast-live`,
 *  a status region always there (the toast shown inside it): a region shown at the moment its text
 *  comes is read unreliably. The text is emptied, then set on the next frame, so the same text
 *  said twice ("Link copied.", the button pressed again) is a change a screen reader says again. */
export function toast(text) {
  const t = $("toast");
  t.textContent = "";
  clearTimeout(toastTimer);
  cancelAnimationFrame(toastFrame);
  toastFrame = requestAnimationFrame(() => {
    t.textContent = text;
    t.hidden = false;
  });
  toastTimer = setTimeout(hideToast, 4000);
}

export function hideToast() {
  clearTimeout(toastTimer);
  cancelAnimationFrame(toastFrame);
  $("toast").hidden = true;
}
