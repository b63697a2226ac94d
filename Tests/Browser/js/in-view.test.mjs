// What lies within a screen of the map's view (web/js/in-view.mjs): node --test, run by WebScriptTests.
import assert from "node:assert/strict";
import { test } from "node:test";
import { drawnReach, inView, nearestTo, nextThatWay, pictureHolds, redrawDue, within } from "../../../Sources/CWebPage/web/js/in-view.mjs";

const size = { w: 1000, h: 600 }, self = (p) => p;

test("what is drawn reaches a screen past every side, a quarter while zooming", () => {
  assert.deepEqual(drawnReach(size, 2, false), { w: 3000, h: 1800 });
  assert.deepEqual(drawnReach(size, 2, true), { w: 1500, h: 900 });
  const c = { x: 0, y: 0 }, reach = drawnReach(size, 2, false);
  assert.ok(within({ x: 3000, y: -1800 }, c, reach));
  assert.ok(!within({ x: 3001, y: 0 }, c, reach));
  assert.ok(!within({ x: 0, y: -1801 }, c, reach));
});

test("a point is in a view up to its edges", () => {
  const v = { x: 10, y: 20, width: 100, height: 50 };
  assert.ok(inView({ x: 10, y: 70 }, v));
  assert.ok(inView({ x: 110, y: 20 }, v));
  assert.ok(!inView({ x: 9, y: 30 }, v));
  assert.ok(!inView({ x: 50, y: 71 }, v));
});

test("the markers are drawn again every half screen, a quarter if narrowed, and to widen a narrowed drawing", () => {
  const cam = (x, y) => ({ x, y, unit: 2 });
  assert.ok(redrawDue(null, cam(0, 0), size, false), "nothing drawn yet");
  const wide = { x: 0, y: 0, narrow: false }, narrow = { x: 0, y: 0, narrow: true };
  assert.ok(!redrawDue(wide, cam(1000, 600), size, false));
  assert.ok(redrawDue(wide, cam(1001, 0), size, false));
  assert.ok(redrawDue(wide, cam(0, 601), size, true));
  assert.ok(!redrawDue(narrow, cam(500, 300), size, true));
  assert.ok(redrawDue(narrow, cam(501, 0), size, true));
  assert.ok(redrawDue(narrow, cam(0, 0), size, false), "a zoom's narrow drawing is widened");
});

test("markers as drawn stand for a moving view up to half a screen away and twice or half their size", () => {
  const placed = { x: 0, y: 0, unit: 2, w: 1000, h: 600 };
  assert.ok(pictureHolds(placed, { x: 1000, y: 600, unit: 2 }, size, false));
  assert.ok(!pictureHolds(placed, { x: 1001, y: 0, unit: 2 }, size, false));
  assert.ok(pictureHolds(placed, { x: 0, y: 0, unit: 1 }, size, false));
  assert.ok(!pictureHolds(placed, { x: 0, y: 0, unit: 0.99 }, size, false));
  assert.ok(pictureHolds(placed, { x: 0, y: 0, unit: 4 }, size, false));
  assert.ok(!pictureHolds(placed, { x: 0, y: 0, unit: 4.01 }, size, false));
  assert.ok(!pictureHolds(placed, { x: 10, y: 0, unit: 2 }, size, true), "a pan over a narrowed drawing");
  assert.ok(pictureHolds(placed, { x: 10, y: 0, unit: 1.5 }, size, true), "a zoom over a narrowed drawing");
  assert.ok(!pictureHolds(placed, { x: 0, y: 0, unit: 2 }, { w: 1000, h: 601 }, false), "another size of screen");
  assert.ok(!pictureHolds(null, { x: 0, y: 0, unit: 2 }, size, false), "nothing drawn yet");
});

test("the nearest to the centre is found, or none", () => {
  const a = { x: 10, y: 0 }, b = { x: 0, y: -5 }, c = { x: 7, y: 7 };
  assert.equal(nearestTo([a, b, c], { x: 0, y: 0 }, self), b);
  assert.equal(nearestTo([], { x: 0, y: 0 }, self), null);
});

test("an arrow goes to the nearest ahead, a step aside counting twice a step ahead", () => {
  const from = { x: 0, y: 0 }, ahead = { x: 30, y: 0 }, aside = { x: 12, y: 10 }, behind = { x: -5, y: 0 }, up = { x: 0, y: -40 };
  const all = [from, ahead, aside, behind, up];
  // Right: `aside` scores 12 + 2·10 = 32, `ahead` 30.
  assert.equal(nextThatWay(from, all, "ArrowRight", 1, self), ahead);
  // At 2 units a pixel the same points are half as far on screen, and the order holds.
  assert.equal(nextThatWay(from, all, "ArrowRight", 2, self), ahead);
  assert.equal(nextThatWay(from, all, "ArrowLeft", 1, self), behind);
  assert.equal(nextThatWay(from, all, "ArrowUp", 1, self), up);
  assert.equal(nextThatWay(from, all, "ArrowDown", 1, self), aside);
  assert.equal(nextThatWay(from, [from, { x: 0.5, y: 0 }], "ArrowRight", 1, self), null, "less than a pixel ahead is not ahead");
});
