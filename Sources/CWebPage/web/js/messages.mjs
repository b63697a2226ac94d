// What went wrong with an answer of the API, for a person: pure (an answer is {status, headers,
// body} or {network: true}), so node tests every sentence (Tests/Browser/js/messages.test.mjs).

import { countText, hiddenCharacter, inWords, shownText } from "./text.mjs";

/** The wait a 429 or 503 asks for, in seconds (`Retry-After`; a minute when it says nothing). */
export function retryAfter(answer) {
  const s = parseInt(answer.headers && answer.headers.get("Retry-After"), 10);
  return isNaN(s) || s < 1 ? 60 : s;
}

/** The API's names for a pin's fields, as the form calls them. */
const FIELDS = { mediaURL: "link", mapString: "place", firstName: "first name", lastName: "last name" };

/** The error the server said, if it said one, in the form's words: the API's sentences name its
 *  fields ("The field mediaURL must be…" is "The link must be…"). */
function said(answer) {
  if (!answer.body || typeof answer.body.error !== "string") return "";
  return answer.body.error.replace(/\bThe field (mediaURL|mapString|firstName|lastName)\b/g, (_, field) => "The " + FIELDS[field])
    // The place lookup's parameter (`/v1/geocode?q=`).
    .replace(/^q must\b/, "The place must");
}

/** What went wrong, in a sentence. */
export function failure(answer) {
  if (!answer || answer.network) return "Cannot reach the server. Check your connection and try again.";
  const text = said(answer);
  if (answer.status === 429) {
    // The server's sentence may say how long already ("…: try again in 47 seconds."): once is enough.
    if (/try again/i.test(text)) return text;
    return (text || "Too many requests.") + " Try again in " + inWords(retryAfter(answer)) + ".";
  }
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

/** The longest link a pin may have (the server's limit, docs/API.md). */
export const MAX_LINK = 2048;

/** What is wrong with a link typed for a pin, or "" when nothing is. */
export function linkProblem(link, isWebLink) {
  if (!isWebLink(link)) {
    // Copied with the address from a page or a chat, unseen: said, as no other reason would fit
    // (a tab or a line break is said as the space it looks like, below).
    const hidden = hiddenCharacter(link.replace(/[\t\n\r]/g, " "));
    if (hidden) return "The link holds a hidden character (" + hidden + "), which can make it read as another address: type it again rather than paste it.";
    // A space (pasted with the address, or typed in a page's name): said as such, not as a wrong name
    // or port, which is what the address's shape says of it.
    if (/\s/.test(link)) return "A link cannot hold spaces: take them out, or write each one as %20.";
    // "https://www.linkedin.com@evil.example/" opens evil.example: the part before @ is a user name.
    if (/^https?:\/\/[^\/?#]*@/i.test(link)) return "A link cannot name a user before its site (the part before @): it would read as another site. Leave that part out.";
    // Begun right, and still no address: the server would refuse it after the place was found.
    if (/^https?:\/\//i.test(link)) return "That is not an address a browser can open: check the site's name, and its port if it has one (1 to 65535).";
    return "Enter a link that starts with http:// or https://, such as your GitHub page.";
  }
  if (link.length > MAX_LINK) {
    return "That link is too long: a pin's link may have up to 2,048 characters, and this one has " +
      countText(link.length) + ". Use a shorter address for the same page.";
  }
  return "";
}

/** The question Finish asks before it replaces the user's pin `mine` ({mapString, mediaURL}) with
 *  `label` and `link`: about what would change, the place or only the link. */
export function overwriteQuestion(mine, label, link) {
  const q = (text) => "\u201c" + shownText(text) + "\u201d";
  if (mine.mapString !== label) return "You already have a pin at " + q(mine.mapString) + ". Replace it with " + q(label) + "?";
  if (mine.mediaURL !== link) return "Your pin at " + q(label) + " links to " + q(mine.mediaURL) + ". Link it to " + q(link) + " instead?";
  return "Your pin is already at " + q(label) + " with this link. Post it again, as your newest?";
}

/** What the page says once a pin is posted: `mine`, the pin it replaced ({mapString, mediaURL}) or
 *  null; `label` and `link`, what was posted. Said as what changed, as the question before it asked. */
export function postedText(mine, label, link) {
  if (!mine) return "Your pin is on the map at " + label + ".";
  if (mine.mapString !== label) return "Your pin moved to " + label + ".";
  if (mine.mediaURL !== link) return "Your pin at " + label + " links to the new address.";
  return "Your pin at " + label + " is posted again, as your newest.";
}

/** Why a pin's address could not be copied, and the address to copy by hand (pin-link.mjs):
 *  `refused`, the browser refused the clipboard; otherwise the page has no clipboard API and the
 *  older way failed too, which a page opened over plain http (`secure` false) cannot help. */
export function copyFailure(address, refused, secure) {
  const why = refused ? "the browser did not allow the page to use the clipboard."
    : secure ? "this browser did not let the page copy it."
    : "this page can copy only when opened over https.";
  return "Could not copy the link: " + why + " Its address, to copy by hand: " + address;
}
