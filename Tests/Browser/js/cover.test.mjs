// Controls under something drawn over them (web/js/cover.mjs): node --test, run by WebScriptTests.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cover } from "../../../Sources/CWebPage/web/js/cover.mjs";

test("a control is inert while anything covers it, and only then", () => {
  const zoom = { inert: false };
  cover(zoom, "post", true);
  assert.equal(zoom.inert, true);
  cover(zoom, "popup", true);
  // The sheet closes; the popup still covers the buttons.
  cover(zoom, "post", false);
  assert.equal(zoom.inert, true);
  cover(zoom, "popup", false);
  assert.equal(zoom.inert, false);
  // Uncovered twice is still uncovered; no element is nothing to do.
  cover(zoom, "popup", false);
  assert.equal(zoom.inert, false);
  assert.doesNotThrow(() => cover(null, "popup", true));
});

test("the element is written only when its state changes", () => {
  let writes = 0, inert = false;
  const zoom = { get inert() { return inert; }, set inert(v) { writes++; inert = v; } };
  for (let frame = 0; frame < 10; frame++) cover(zoom, "popup", true);
  assert.equal(writes, 1);
});
