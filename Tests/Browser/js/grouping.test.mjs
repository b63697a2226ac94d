// The clusters' levels a zoom is about to need (web/js/grouping.mjs): node --test, run by WebScriptTests.
import assert from "node:assert/strict";
import { test } from "node:test";
import { zoomLevel } from "../../../Sources/CWebPage/web/js/clusters.mjs";
import { foreseenLevels } from "../../../Sources/CWebPage/web/js/grouping.mjs";

const range = [0.01, 1000];

test("at rest, a wheel's notch either way, its neighbours, and the keys' and a double-click's zoom", () => {
  const levels = foreseenLevels(1, 0, range);
  assert.equal(new Set(levels).size, levels.length, "each level once");
  // A notch zooms by a quarter until the view has doubled or halved: 1.25⁴ > 2.
  const on = Math.pow(1.25, -4), back = Math.pow(1.25, 4);
  for (const unit of [on, back, on * on, 1 / 1.5, 1.5, 0.5]) assert.ok(levels.includes(zoomLevel(unit)), "level of " + unit);
  assert.ok(levels.includes(zoomLevel(on) - 1) && levels.includes(zoomLevel(on) + 1), "beside the next");
  assert.ok(!levels.includes(zoomLevel(1)), "not the level drawn");
});

test("a gesture's trend is followed, going on and turning back", () => {
  // Zooming in by 1.1 a step: the next redraw is past a halving of the units a pixel.
  const levels = foreseenLevels(1, 1.1, range), on = Math.pow(1.1, -8);
  assert.equal(levels[0], zoomLevel(on));
  assert.equal(levels[1], zoomLevel(Math.pow(1.1, 8)));
  assert.equal(levels[2], zoomLevel(on / Math.pow(1.1, 8)));
});

test("a gesture's next redraw stops at the ends of the zoom's range", () => {
  const closest = foreseenLevels(0.01, 1.25, range);
  assert.equal(closest[0], zoomLevel(0.01), "zooming in stops at the closest");
  assert.equal(closest[1], zoomLevel(0.01 * Math.pow(1.25, 4)), "turning back");
  const farthest = foreseenLevels(1000, 1.25, range);
  assert.equal(farthest[0], zoomLevel(1000 / Math.pow(1.25, 4)));
  assert.equal(farthest[1], zoomLevel(1000), "zooming out stops at the world");
});
