// What the page says went wrong (web/js/messages.mjs): node --test, run by WebScriptTests.
import assert from "node:assert/strict";
import { test } from "node:test";
import { copyFailure, linkProblem, postedText } from "../../../Sources/CWebPage/web/js/messages.mjs";
import { isWebLink } from "../../../Sources/CWebPage/web/js/text.mjs";

test("a link with a space says the space is the problem, not the site's name or port", () => {
  for (const link of ["https://example.com/my page", "https://example .com/", "https://example.com/a\tb", "http:// example.com"]) {
    const said = linkProblem(link, isWebLink);
    assert.match(said, /cannot hold spaces/, link);
    assert.doesNotMatch(said, /port|name/, link);
  }
});

test("a bad port or name is still said as one; a good link is no problem", () => {
  assert.match(linkProblem("https://example.com:99999/me", isWebLink), /port/);
  assert.match(linkProblem("ftp://example.com/", isWebLink), /starts with http/);
  // Begun right and nothing after: not told to begin with what it begins with.
  assert.match(linkProblem("https://", isWebLink), /not an address a browser can open/);
  // A link pasted with an invisible character: named, not blamed on the site's name or port.
  assert.match(linkProblem("https://ada.example/\u200bme", isWebLink), /hidden character \(U\+200B\)/);
  assert.match(linkProblem("https://ada.example/\u202egnp.exe", isWebLink), /hidden character \(U\+202E\)/);
  assert.match(linkProblem("https://ada.example/\u0000", isWebLink), /hidden character \(U\+0000\)/);
  // A user name before the site: "www.linkedin.com@evil.example" opens evil.example.
  assert.match(linkProblem("https://www.linkedin.com@evil.example/in/x", isWebLink), /user before its site/);
  assert.equal(linkProblem("https://example.com/my%20page?from=a@b", isWebLink), "");
  assert.match(linkProblem("https://" + "x".repeat(2100) + ".example", isWebLink), /2,048/);
});

test("a link not copied says why in plain words, and gives the address to copy by hand", () => {
  const address = "http://192.168.1.5:8080/#/pin/abc";
  assert.equal(copyFailure(address, false, false),
    "Could not copy the link: this page can copy only when opened over https. Its address, to copy by hand: " + address);
  assert.equal(copyFailure(address, false, true),
    "Could not copy the link: this browser did not let the page copy it. Its address, to copy by hand: " + address);
  assert.equal(copyFailure(address, true, true),
    "Could not copy the link: the browser did not allow the page to use the clipboard. Its address, to copy by hand: " + address);
});

test("a posted pin is said as what changed: a new pin, a move, a new link, or the same pin posted again", () => {
  const mine = { mapString: "Lima, Peru", mediaURL: "https://ada.example" };
  assert.equal(postedText(null, "Lima, Peru", "https://ada.example"), "Your pin is on the map at Lima, Peru.");
  assert.equal(postedText(mine, "Cusco, Peru", "https://ada.example"), "Your pin moved to Cusco, Peru.");
  assert.equal(postedText(mine, "Lima, Peru", "https://ada.example/new"), "Your pin at Lima, Peru links to the new address.");
  // Not "moved": it is where it was.
  assert.equal(postedText(mine, "Lima, Peru", "https://ada.example"), "Your pin at Lima, Peru is posted again, as your newest.");
});
