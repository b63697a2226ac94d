// The page's addresses (web/js/routes.mjs): node --test, run by WebScriptTests.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseRoute, routeAddress, routeHash } from "../../../Sources/CWebPage/web/js/routes.mjs";

test("each view has an address that reads back as it", () => {
  for (const route of [{ view: "map" }, { view: "list" }, { view: "post" }, { view: "pin", id: "Iz9WPoiapd" }]) {
    assert.deepEqual(parseRoute(routeHash(route)), route);
  }
  assert.equal(routeHash({ view: "map" }), "#/");
  assert.equal(routeHash({ view: "pin", id: "abc" }), "#/pin/abc");
});

test("an objectId with characters of its own is escaped in the address and read back", () => {
  for (const id of ["a/b", "a b", "é#?&", "hostile-<img src=x>", "%41"]) {
    const hash = routeHash({ view: "pin", id });
    assert.ok(!/[\s#?]/.test(hash.slice(1)), hash);
    assert.deepEqual(parseRoute(hash), { view: "pin", id });
  }
});

test("an address it does not know is the map", () => {
  for (const hash of ["", "#", "#/", "#/nowhere", "#/pin/", "#/pin/%E0%A4%A", "#/list/extra", "#list", "javascript:alert(1)"]) {
    assert.deepEqual(parseRoute(hash), { view: "map" }, hash);
  }
});

test("a view's whole address is the page's, with the view's hash in place of any other", () => {
  assert.equal(routeAddress({ view: "pin", id: "Iz9WPoiapd" }, "https://map.example/onthemap/#/list"),
    "https://map.example/onthemap/#/pin/Iz9WPoiapd");
  assert.equal(routeAddress({ view: "pin", id: "a b#c" }, "http://127.0.0.1:8080/"), "http://127.0.0.1:8080/#/pin/a%20b%23c");
  assert.equal(routeAddress({ view: "map" }, "http://127.0.0.1:8080/?x=1#/pin/old"), "http://127.0.0.1:8080/?x=1#/");
});
