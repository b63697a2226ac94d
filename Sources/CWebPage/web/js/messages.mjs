// What went wrong with an answer of the API, for a person: pure (an answer is {status, headers,
// body} or {network: true}), so node tests every sentence (Tests/Browser/js/messages.test.mjs).

import { inWords } from "./text.mjs";

/** The wait a 429 or 503 asks for, in seconds (`Retry-After`; a minute when it says nothing). */
export function retryAfter(answer) {
  const s = parseInt(answer.headers && answer.headers.get("Retry-After"), 10);
  return isNaN(s) || s < 1 ? 60 : s;
}

/** The error the server said, if it said one. */
function said(answer) {
  return answer.body && typeof answer.body.error === "string" ? answer.body.error : "";
}

/** What went wrong, in a sentence. */
export function failure(answer) {
  if (!answer || answer.network) return "Cannot reach the server. Check your connection and try again.";
  const text = said(answer);
  if (answer.status === 429) return (text || "Too many requests.") + " Try again in " + inWords(retryAfter(answer)) + ".";
  if (answer.status >= 500) return (text || "The server failed.") + " (error " + answer.status + ")";
  return text || "The server answered " + answer.status + ".";
}

/** Why a login failed: no answer (the network) is not a wrong password, and a rate limit says how
 *  long to wait in words. */
export function loginFailure(answer) {
  if (answer.network) return "Cannot reach the server. Check your connection and try again.";
  const text = said(answer);
  if (answer.status === 403 || answer.status === 401) return text || "Wrong email or password.";
  if (answer.status === 429) return "Too many login attempts. Try again in " + inWords(retryAfter(answer)) + ".";
  if (answer.status >= 500) return "The server cannot log you in right now" + (text ? ": " + text : ".") + " Try again in a moment.";
  return text || "The server refused the login (" + answer.status + ").";
}
