// The map's clustering (web/js/clusters.mjs): node --test, run by WebScriptTests.
import assert from "node:assert/strict";
import { test } from "node:test";
import { advanceGrouping, groupMarkers, startGrouping, zoomLevel } from "../../../Sources/CWebPage/web/js/clusters.mjs";

const at = (x, y, extra = {}) => ({ at: { x, y }, filtered: false, mine: false, ...extra });

test("a zoom level is an eighth of a doubling", () => {
  assert.equal(zoomLevel(1), 0);
  assert.equal(zoomLevel(2), 8);
  assert.equal(zoomLevel(0.5), -8);
  assert.equal(zoomLevel(Math.pow(2, 1 / 8)), 1);
});

test("markers within reach on screen are one cluster, the rest apart", () => {
  // Level 0: one map unit a pixel, so a reach of 28 pixels is 28 units.
  const markers = [at(100, 100), at(120, 110), at(127, 127), at(200, 100), at(100, 129)];
  const heads = groupMarkers(markers, 0, 28);
  assert.deepEqual(heads.map((h) => h.members.length), [3, 1, 1]);
  assert.deepEqual(heads[0].members, markers.slice(0, 3));
  assert.equal(heads[0].n, 3);
  assert.deepEqual(heads[0].centre, { x: (100 + 120 + 127) / 3, y: (100 + 110 + 127) / 3 });
});

test("zoomed out, the same markers are fewer clusters", () => {
  const markers = [];
  for (let i = 0; i < 50; i++) markers.push(at(1000 + i * 40, 2000));
  const close = groupMarkers(markers, 0, 28).length;
  const far = groupMarkers(markers, 16, 28).length; // four times the units a pixel
  assert.equal(close, 50);
  // Four times the units a pixel: a reach of 112 units, so each cluster is a marker and the next two.
  assert.equal(far, 17);
  assert.equal(groupMarkers(markers, 16, 28).reduce((n, h) => n + h.members.length, 0), 50, "every marker in one cluster");
});

test("a filtered marker is in no cluster; the count is the students shown; yours is known", () => {
  const markers = [at(10, 10, { count: 3 }), at(12, 12, { filtered: true, count: 5 }), at(14, 14, { mine: true, count: 1 })];
  const heads = groupMarkers(markers, 0, 28, (m) => m.count);
  assert.equal(heads.length, 1);
  assert.equal(heads[0].members.length, 2);
  assert.equal(heads[0].n, 4);
  assert.equal(heads[0].mine, true);
});

test("grouping goes on where it stopped when its time is up", () => {
  const markers = [];
  for (let i = 0; i < 2000; i++) markers.push(at((i * 7919) % 65535, (i * 104729) % 65535));
  const whole = groupMarkers(markers, 0, 28);
  const job = startGrouping(markers, 0, 28);
  // Each slice has until the clock's next tick; the clock ticks once a check.
  let clock = 0, slices = 0;
  while (!advanceGrouping(job, clock + 1, () => 1, () => ++clock)) slices++;
  assert.ok(slices > 1, "it stopped and went on");
  assert.deepEqual(job.heads.map((h) => h.members.length), whole.map((h) => h.members.length));
});

test("a group's students are counted a slice at a time, however few the groups", () => {
  // Two thousand markers at one point: one group. Counting its students when its centre is worked
  // out counted all two thousand between two readings of the clock.
  const markers = [];
  for (let i = 0; i < 2000; i++) markers.push(at(100, 100));
  const job = startGrouping(markers, 0, 28);
  let clock = 0, counted = 0, most = 0;
  const countOf = (m) => {
    if (m.count == null) {
      m.count = 1;
      most = Math.max(most, ++counted);
    }
    return m.count;
  };
  while (!advanceGrouping(job, clock + 1, countOf, () => { counted = 0; return ++clock; }));
  assert.equal(job.heads.length, 1);
  assert.equal(job.heads[0].n, 2000);
  assert.ok(most <= 256, "at most 256 markers counted between two readings of the clock: " + most);
});
