// Requests to the API, the busy bar, and the page's messages (an alert, a toast).

import { $, state } from "./state.mjs";

let busy = 0;

/** One request to the API, with the busy bar shown while it runs. Resolves with {status, headers,
 *  body} (the XSSI prefix stripped, JSON parsed) for any answer; rejects with {network: true} when
 *  none came. `o.auth`: send the session; `o.body`: JSON to send; `o.headers`: more headers. */
export async function api(method, path, o = {}) {
  const headers = { "Accept": "application/json" };
  if (o.body !== undefined) headers["Content-Type"] = "application/json";
  if (o.auth && state.session) headers["X-OnTheMap-Session"] = state.session.id;
  Object.assign(headers, o.headers || {});
  setBusy(1);
  try {
    let answer;
    try {
      answer = await fetch(path, {
        method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body),
        credentials: "same-origin", cache: "no-store",
      });
    } catch (e) {
      throw { network: true };
    }
    let text = "";
    try {
      text = await answer.text();
    } catch (e) {
      throw { network: true };
    }
    if (text.slice(0, 5) === ")]}'\n") text = text.slice(5);
    let body = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch (e) {
      body = null;
    }
    return { status: answer.status, headers: answer.headers, body };
  } finally {
    setBusy(-1);
  }
}

function setBusy(d) {
  busy = Math.max(0, busy + d);
  $("busy").hidden = !busy;
  document.body.setAttribute("aria-busy", busy ? "true" : "false");
}

export function showAlert(text) {
  $("alert-text").textContent = text;
  $("alert").hidden = false;
}

export function hideAlert() {
  $("alert").hidden = true;
}

let toastTimer = 0;

/** A message that goes by itself after four seconds. */
export function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 4000);
}
