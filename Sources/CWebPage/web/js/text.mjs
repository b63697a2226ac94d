// Words and checks on text, pure (no page): node tests them (Tests/Browser/js/text.test.mjs).

/** Letters folded for search: no accents, lower case ("São Paulo" → "sao paulo"). */
export function foldText(text) {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

/** Control characters (C0, DEL, C1) and Unicode's bidi controls (embeddings, overrides, isolates,
 *  marks), which make "…/\u202egnp.exe" read as "…/exe.png": the daemon's rule (DisplayText). */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Unicode's invisible format characters (Cf: U+200B, U+2060, U+FEFF …), which make one link read as
 *  another: the daemon's WebLink rule refuses them in links as it refuses bidi controls. */
const INVISIBLE = /\p{Cf}/u;

/** The first hidden character of `text` (a control, bidi or invisible format character) as Unicode
 *  charts write it ("U+200B"), or "" when it holds none: what a pasted link may carry unseen. */
export function hiddenCharacter(text) {
  return codePointOf(text.match(new RegExp(CONTROLS.source + "|" + INVISIBLE.source, "u")));
}

/** A character found (a match, or null) as Unicode charts write it ("U+200B"); "" for none. */
function codePointOf(found) {
  return found ? "U+" + found[0].codePointAt(0).toString(16).toUpperCase().padStart(4, "0") : "";
}

/** The first control character of `text` (C0, DEL, C1) as Unicode charts write it ("U+001B"), or
 *  "" when it holds none: what no place name has. */
export function hiddenControl(text) {
  return codePointOf(text.match(/[\u0000-\u001f\u007f-\u009f]/));
}

/** Whether `url` may become a link: http or https with a host, no spaces, no control, bidi or
 *  invisible format character (the daemon's WebLink rule: old data on a server may hold any of them), and an
 *  address a browser can read, its port one a connection can use (the server refuses the rest:
 *  "https://example.com:99999/me", "https://%%%"). */
export function isWebLink(url) {
  if (typeof url !== "string" || CONTROLS.test(url) || INVISIBLE.test(url) || !/^https?:\/\/[^\s\/?#@]+(?:[\/?#]\S*)?$/i.test(url)) return false;
  try {
    return new URL(url).port !== "0";
  } catch (e) {
    return false;
  }
}

/** Text someone else wrote, as it may be shown, as the daemon's DisplayText.clean shows it: tab,
 *  line feed, carriage return and the line separators U+2028 and U+2029 become a space, any other control U+FFFD, bidi controls are dropped
 *  (a name cannot turn the text after it around), and so are combining marks past the fourth on a character. */
export function shownText(text) {
  if (!CONTROLS.test(text) && !MARKS_PAST_FOUR.test(text)) return text;
  return text.replace(/[\t\n\r\u2028\u2029]/g, " ").replace(/[\u0000-\u001f\u007f-\u009f]/g, "\ufffd")
    .replace(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "").replace(new RegExp(MARKS_PAST_FOUR.source, "gu"), "$1");
}

/** Combining marks past the fourth on one character ("Zalgo" text, drawn over the lines around it),
 *  as DisplayText.maxMarksInARow: four is as many as a written language stacks. */
const MARKS_PAST_FOUR = /((?:\p{Mn}|\p{Me}){4})(?:\p{Mn}|\p{Me})+/u;

/** "1 student", "2 students". */
export function plural(n, word) {
  return n + " " + word + (n === 1 ? "" : "s");
}

/** A wait in words: "47 seconds", "2 minutes", "1 hour". */
export function inWords(seconds) {
  if (seconds < 60) return plural(seconds, "second");
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return plural(minutes, "minute");
  return plural(Math.ceil(minutes / 60), "hour");
}

/** How long ago an ISO time was, as a person says it: "just now", "5 min ago", "3 days ago", else
 *  the date. Empty for a time that cannot be read. */
export function ago(iso, now = Date.now()) {
  const t = Date.parse(iso);
  if (isNaN(t)) return "";
  const s = Math.round((now - t) / 1000);
  if (s < 60) return "just now";
  const m = Math.round(s / 60);
  if (m < 60) return m + " min ago";
  const h = Math.round(m / 60);
  if (h < 24) return plural(h, "hour") + " ago";
  const d = Math.round(h / 24);
  if (d < 31) return plural(d, "day") + " ago";
  return new Date(t).toLocaleDateString();
}

/** When something began, as a person reads it: the time of day today ("12:36 PM"), else with its
 *  day ("Fri, Nov 27, 12:36 PM"): a map kept two days ago must not read as this afternoon's. */
export function sinceText(t, now = Date.now(), locale = []) {
  const d = new Date(t), today = d.toDateString() === new Date(now).toDateString();
  return d.toLocaleString(locale, today ? { hour: "numeric", minute: "2-digit" }
    : { weekday: "short", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
}

/** A count as people read it: "10,000". */
export function countText(n) {
  return n.toLocaleString("en");
}

/** What a search that leaves no student says, in the List and the exported map's count. */
export function noMatchText(q) {
  return "No student\u2019s name or place holds \u201c" + shownText(q.trim()) + "\u201d.";
}
