// Logging in and out, and noticing a session that ended elsewhere.
//
// The session id lives in `sessionStorage` (this tab only, gone when it closes) and travels in the
// `X-OnTheMap-Session` header, never a cookie, so another site cannot make the browser use it.
// Logging out needs the XSRF token the server sets as a cookie at login: the page reads it once,
// keeps it with the session, and deletes the cookie.

import { api, hideAlert, hideToast, serverAnswers, showAlert, whenBack } from "./api.mjs";
import { showTab } from "./list.mjs";
import { failure, loginFailure } from "./messages.mjs";
import { drawStudents, loadPins, refresh, schedulePoll, stopPoll } from "./pins.mjs";
import { closePost } from "./post.mjs";
import { $, state, ui } from "./state.mjs";

const SESSION_KEY = "onthemap.session";
/** The cache where the service worker keeps the last list seen (sw.js, LISTS). */
const KEPT_LISTS = "onthemap-lists";
/** How long Log out waits for the service worker to say the kept lists are deleted. */
const FORGET_WAIT_MS = 3000;

export function loadSession() {
  try {
    const s = JSON.parse(sessionStorage.getItem(SESSION_KEY));
    return s && typeof s.id === "string" && typeof s.key === "string" ? s : null;
  } catch (e) {
    return null;
  }
}

function saveSession(s) {
  state.session = s;
  try {
    if (s) sessionStorage.setItem(SESSION_KEY, JSON.stringify(s));
    else sessionStorage.removeItem(SESSION_KEY);
  } catch (e) {
    // storage refused (private mode): the session lasts as long as the page
  }
}

function takeXSRFToken() {
  const m = document.cookie.match(/(?:^|;\s*)XSRF-TOKEN=([^;]*)/);
  document.cookie = "XSRF-TOKEN=; Max-Age=0; Path=/; SameSite=Strict";
  try {
    return m ? decodeURIComponent(m[1]) : "";
  } catch (e) {
    return "";
  }
}

function loginError(text) {
  const e = $("login-error");
  e.textContent = text;
  e.hidden = !text;
}

export async function login(ev) {
  ev.preventDefault();
  const email = $("login-username").value.trim(), password = $("login-password").value;
  if (!email || !password) {
    loginError("Enter your email and password.");
    (email ? $("login-password") : $("login-username")).focus();
    return;
  }
  loginError("");
  $("login-submit").disabled = true;
  const epoch = state.epoch;
  try {
    const a = await api("POST", "v1/session", { body: { udacity: { username: email, password } } });
    if (epoch !== state.epoch) return;
    if (a.status !== 200 || !a.body || !a.body.session || !a.body.account) {
      loginError(loginFailure(a));
      return;
    }
    saveSession({ id: String(a.body.session.id), key: String(a.body.account.key), xsrf: takeXSRFToken(), first: "", last: "" });
    $("login-password").value = "";
    await loadProfile();
    enter();
  } catch (a) {
    const said = loginFailure(a);
    loginError(said);
    // Said of the network, it goes by itself once the server answers again.
    if (a.network) whenBack(() => { if ($("login-error").textContent === said) loginError(""); });
    // No server: the last map seen, if the page has kept one (sw.js), behind the login.
    if (a.network && !state.students.length) loadPins(true);
  } finally {
    $("login-submit").disabled = false;
    // The button had the focus, and lost it when it was disabled: a failed login puts it back in
    // the password, to be typed again.
    if (document.activeElement === document.body && !$("login").hidden) $("login-password").focus();
  }
}

/** The user's names, which a pin carries. */
export async function loadProfile() {
  const s = state.session;
  if (!s) return;
  try {
    const a = await api("GET", "v1/users/" + encodeURIComponent(s.key));
    const p = a.body && (a.body.user || a.body);
    if (a.status !== 200 || !p || state.session !== s) return;
    s.first = String(p.first_name || p.firstName || "");
    s.last = String(p.last_name || p.lastName || "");
    saveSession(s);
  } catch (e) {
    // no answer: the names are asked for again before a post
  }
}

/** Into the page, with this tab's session, on the view its address names (`#/list` …). */
export function enter() {
  if (!state.session) return;
  document.body.className = "signed-in";
  $("login").hidden = true;
  $("bar").hidden = false;
  loginError("");
  showTab("map");
  refresh();
  schedulePoll();
  // The focus on the screen the address opened (a view that takes it, as the post form, has).
  ui.applyRoute(true);
}

/** Back to the login screen, forgetting the session and everything shown with it. `forgotten`
 *  (Log out): resolves once the list the page kept for offline use is deleted, which the last map
 *  seen behind the login is read after. */
export function leave(message, forgotten) {
  state.epoch++;
  stopPoll();
  saveSession(null);
  closePost(false);
  state.students = [];
  state.etag = null;
  state.newest = "";
  state.mine = null;
  state.loaded = false;
  drawStudents([]);
  document.body.className = "signed-out";
  showTab("map");
  $("bar").hidden = true;
  $("search").value = "";
  $("login").hidden = false;
  hideAlert();
  hideToast();
  loginError(message || "");
  $("login-username").focus({ preventScroll: true });
  // The server cannot be reached (the phone is offline, or the server down): said at once, with
  // the last map seen behind the login, if the page has kept one (sw.js).
  const epoch = state.epoch;
  Promise.all([serverAnswers(), forgotten]).then(([up]) => { if (!up && epoch === state.epoch) loadPins(true); });
}

export function expired() {
  leave("Your session has ended: it expired or was revoked. Log in again.");
}

export async function logout() {
  const s = state.session;
  if (!s) {
    loggedOut();
    return;
  }
  try {
    const a = await api("DELETE", "v1/session", { headers: { "X-XSRF-TOKEN": s.xsrf || "" } });
    // 403: the server no longer knows the session (revoked, or logged out elsewhere).
    if (a.status === 200 || a.status === 401 || a.status === 403) loggedOut();
    else showAlert("Could not log out: " + failure(a));
  } catch (a) {
    if (!a.network) {
      showAlert("Could not log out: " + failure(a));
      return;
    }
    // No server: the page forgets the session all the same (whoever leaves a shared computer must
    // leave it logged out), and says what the server still holds.
    loggedOut("Logged out on this device. The server could not be reached, so your session stays valid there until it expires.");
  }
}

/** Logged out: the login screen, and nothing of this person's for the next one to find (`forgetForTheNextPerson`). */
function loggedOut(message) {
  const forgotten = forgetForTheNextPerson();
  leave(message, forgotten);
}

/** What the next person must not find: the place and link typed in the post form by this one, the
 *  view in the address (a pin's popup opened again at the next login on this tab), and the list the
 *  service worker kept (sw.js), which a page opened offline showed behind the login. Only on Log
 *  out: an expired session, logging the same person back in, keeps them. Resolves once the list is
 *  deleted. */
function forgetForTheNextPerson() {
  $("post-place").value = "";
  $("post-link").value = "";
  history.replaceState(null, "", "#/");
  // No `caches` on a page that is not a secure context (plain http from another machine): no
  // service worker there either, so nothing kept.
  if (typeof caches === "undefined") return Promise.resolve();
  const deleted = () => caches.delete(KEPT_LISTS).catch(() => {});
  const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (!worker) return deleted();
  // The service worker deletes them itself: a page of the list still arriving, which it would keep
  // once its whole body came, is then not kept (sw.js, `forgotten`). A worker that does not answer
  // (an older version's, still running) leaves the page to delete them.
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const late = setTimeout(() => deleted().then(resolve), FORGET_WAIT_MS);
    channel.port1.onmessage = () => {
      clearTimeout(late);
      resolve();
    };
    worker.postMessage({ forget: "lists" }, [channel.port2]);
  });
}

/** Whether the session is still live; an ended one goes back to the login screen. No answer counts
 *  as live: the next check asks again. `quiet`: the page's own check (no busy bar, api.mjs). */
export async function checkSession(quiet) {
  const s = state.session;
  if (!s) return false;
  try {
    const a = await api("GET", "v1/session", { auth: true, quiet });
    if (state.session !== s) return false;
    if (a.status === 401) {
      expired();
      return false;
    }
    return true;
  } catch (e) {
    return true;
  }
}
