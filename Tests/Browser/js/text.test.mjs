// Words and link checks (web/js/text.mjs, messages.mjs, mercator.mjs): node --test, run by WebScriptTests.
import assert from "node:assert/strict";
import { test } from "node:test";
import { failure, linkProblem, loginFailure, overwriteQuestion } from "../../../Sources/CWebPage/web/js/messages.mjs";
import { mapX, mapY, WORLD } from "../../../Sources/CWebPage/web/js/mercator.mjs";
import { ago, countText, foldText, hiddenControl, inWords, isWebLink, noMatchText, plural, shownText, sinceText } from "../../../Sources/CWebPage/web/js/text.mjs";

test("only http and https addresses with a host become links", () => {
  for (const good of ["https://ada.example", "http://ada.example/path?q=1#x", "HTTPS://ADA.EXAMPLE", "https://a.example:8080/", "https://a.example:65535/"]) {
    assert.ok(isWebLink(good), good);
  }
  for (const bad of [
    "javascript:alert(1)", " JaVaScRiPt:alert(5)", "data:text/html,<script>alert(4)</script>", "https://", "https:// a.example",
    "https://a.example/ spaces", "ftp://a.example", "//a.example", "https://user@evil.example", "", null, undefined, 42,
    // Control and bidi characters, as the daemon's WebLink rule: old data on a server may hold them.
    "https://ok.example/\u202egnp.exe", "https://ok.example/\u001b[2J", "https://ok.example/a\u0000evil",
    "https://ok.example/\u2066x", "https://ok.example/\u200fx", "https://ok.example/\u0085x", "https://ok.example/\u007fx",
    // Invisible format characters (stored before the server refused them): one link reads as another.
    "https://ok.example/\u200b", "https://o\u200bk.example/", "https://ok.example/\ufeffx", "https://ok.example/\u2060x",
    // What the server refuses as no address: a port no connection can use, a host no browser reads.
    "https://example.com:99999/me", "https://a.example:0/", "https://%%%",
    // A user name before the site, which a cut table shows as the site: it opens evil.example.
    "https://www.linkedin.com@evil.example/in/x", "https://u:p@ok.example/",
  ]) {
    assert.equal(isWebLink(bad), false, JSON.stringify(bad));
  }
});

test("other people's text is shown as the daemon shows it: controls as U+FFFD, line breaks as spaces, no bidi", () => {
  assert.equal(shownText("Ada Lovelace"), "Ada Lovelace");
  assert.equal(shownText("São Paulo, 東京"), "São Paulo, 東京");
  assert.equal(shownText("Eve\u001b[2J"), "Eve\ufffd[2J");
  assert.equal(shownText("Eve\u202egnp.exe"), "Evegnp.exe");
  assert.equal(shownText("Paris\r\nFAKE\tROW"), "Paris  FAKE ROW");
  assert.equal(shownText("a\u009bb\u0000c\u007fd"), "a\ufffdb\ufffdc\ufffdd");
  assert.equal(shownText("\u2066x\u2069\u200e\u061c"), "x");
  assert.equal(shownText("Lima\u2028Peru\u2029"), "Lima Peru ");
  // "Zalgo": four marks a character kept (as much as a language stacks), the rest dropped.
  assert.equal(shownText("Z" + "\u0301".repeat(40) + "oe" + "\u20dd".repeat(6)), "Z" + "\u0301".repeat(4) + "oe" + "\u20dd".repeat(4));
  assert.equal(shownText("Tiê\u0301ng Viê\u0323t \u05e9\u05b8\u05c1"), "Tiê\u0301ng Viê\u0323t \u05e9\u05b8\u05c1");
});

test("search folds accents and case", () => {
  assert.equal(foldText("São Paulo"), "sao paulo");
  assert.equal(foldText("ÉCOLE Zürich"), "ecole zurich");
});

test("waits and times in words", () => {
  assert.equal(plural(1, "student"), "1 student");
  assert.equal(plural(2, "student"), "2 students");
  assert.equal(inWords(1), "1 second");
  assert.equal(inWords(47), "47 seconds");
  assert.equal(inWords(61), "2 minutes");
  assert.equal(inWords(3600), "1 hour");
  const now = Date.parse("2026-01-10T12:00:00Z");
  assert.equal(ago("2026-01-10T11:59:30Z", now), "just now");
  assert.equal(ago("2026-01-10T11:55:00Z", now), "5 min ago");
  assert.equal(ago("2026-01-10T09:00:00Z", now), "3 hours ago");
  assert.equal(ago("2026-01-08T12:00:00Z", now), "2 days ago");
  assert.equal(ago("not a time", now), "");
});

const answer = (status, body, headers = {}) => ({ status, body, headers: { get: (name) => headers[name] ?? null } });

test("failures in a person's words", () => {
  assert.match(failure({ network: true }), /^Cannot reach the server/);
  assert.equal(failure(answer(429, { error: "Too many place lookups." }, { "Retry-After": "47" })),
    "Too many place lookups. Try again in 47 seconds.");
  // The server says the wait itself (/v1/geocode): once is enough.
  assert.equal(failure(answer(429, { error: "Too many place lookups: try again in 47 seconds." }, { "Retry-After": "47" })),
    "Too many place lookups: try again in 47 seconds.");
  assert.equal(failure(answer(500, null)), "The server failed. (error 500)");
  assert.equal(failure(answer(400, { error: "limit must be a whole number." })), "limit must be a whole number.");
  // The API's field names, in the form's words.
  assert.equal(failure(answer(400, { error: "The field mediaURL must be an http:// or https:// URL: it names no host." })),
    "The link must be an http:// or https:// URL: it names no host.");
  assert.equal(failure(answer(400, { error: "The field mapString is longer than 200 characters." })),
    "The place is longer than 200 characters.");
  assert.equal(loginFailure(answer(403, null)), "Wrong email or password.");
  assert.equal(loginFailure(answer(429, null, { "Retry-After": "120" })), "Too many login attempts. Try again in 2 minutes.");
});

test("Web Mercator as the server's map places things", () => {
  assert.equal(mapX(-180), 0);
  assert.equal(mapX(180), WORLD);
  assert.ok(Math.abs(mapY(0) - WORLD / 2) < 1e-9);
  assert.equal(mapY(90), mapY(85.0511287798066));
  assert.ok(mapY(60) < mapY(0) && mapY(-60) > mapY(0), "north up");
});

test("offline since: the time today, with its day before today", () => {
  const now = Date.parse("2026-11-29T15:00:00"), today = Date.parse("2026-11-29T12:36:00"), before = Date.parse("2026-11-27T12:36:00");
  assert.equal(sinceText(today, now, "en-US"), "12:36 PM");
  const earlier = sinceText(before, now, "en-US");
  assert.match(earlier, /27/, earlier);
  assert.match(earlier, /12:36/, earlier);
});

test("counts read with thousands separators", () => {
  assert.equal(countText(7), "7");
  assert.equal(countText(10000), "10,000");
  assert.equal(countText(1234567), "1,234,567");
});

test("a pin's link: a web address of at most 2,048 characters, said in words", () => {
  assert.equal(linkProblem("https://ada.example", isWebLink), "");
  assert.match(linkProblem("javascript:alert(1)", isWebLink), /http:\/\/ or https:\/\//);
  assert.match(linkProblem("https://example.com:99999/me", isWebLink), /not an address a browser can open/);
  const long = "https://" + "x".repeat(2100) + ".example";
  assert.equal(linkProblem(long, isWebLink),
    "That link is too long: a pin's link may have up to 2,048 characters, and this one has 2,116. Use a shorter address for the same page.");
  assert.equal(linkProblem("https://" + "x".repeat(2040), isWebLink), "");
});

test("Finish asks about what would change: the place, or only the link", () => {
  const mine = { mapString: "Lima, Peru", mediaURL: "https://a.example" };
  assert.equal(overwriteQuestion(mine, "Oslo, Norway", "https://a.example"),
    "You already have a pin at \u201cLima, Peru\u201d. Replace it with \u201cOslo, Norway\u201d?");
  assert.equal(overwriteQuestion(mine, "Lima, Peru", "https://b.example"),
    "Your pin at \u201cLima, Peru\u201d links to \u201chttps://a.example\u201d. Link it to \u201chttps://b.example\u201d instead?");
  assert.equal(overwriteQuestion(mine, "Lima, Peru", "https://a.example"),
    "Your pin is already at \u201cLima, Peru\u201d with this link. Post it again, as your newest?");
  assert.equal(overwriteQuestion({ mapString: "Lima", mediaURL: "https://a.example/\u202Egnp.exe" }, "Lima", "https://b.example"),
    "Your pin at \u201cLima\u201d links to \u201chttps://a.example/gnp.exe\u201d. Link it to \u201chttps://b.example\u201d instead?");
});

test("the place lookup's refusal in the form's words", () => {
  const answer = { status: 400, headers: new Map(), body: { error: "q must be at most 200 characters." } };
  assert.equal(failure(answer).startsWith("The place must be at most 200 characters."), true, failure(answer));
});

test("a search or place typed with hidden characters is quoted as text, and a control is named", () => {
  // U+202E turned the sentence around: "…holds “zzz.”cba".
  assert.equal(noMatchText(" zzz\u202eabc "), "No student\u2019s name or place holds \u201czzzabc\u201d.");
  assert.equal(hiddenControl("Pa\u001b]0;x\u0007ris"), "U+001B");
  assert.equal(hiddenControl("Li\u200bma"), "", "a zero-width space is no control: the server folds it away");
  assert.equal(hiddenControl("S\u00e3o Paulo"), "");
});
