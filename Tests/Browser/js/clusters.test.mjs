// The map's clustering (web/js/clusters.mjs): node --test, run by WebScriptTests.
import assert from "node:assert/strict";
import { test } from "node:test";
import { advanceGrouping, clusterRadius, groupMarkers, startGrouping, zoomCanSplit, zoomLevel } from "../../../Sources/CWebPage/web/js/clusters.mjs";

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
  for (let i = 0; i < 51; i++) markers.push(at(1000 + i * 40, 2000));
  const close = groupMarkers(markers, 0, 28).length;
  const far = groupMarkers(markers, 16, 28).length; // four times the units a pixel
  assert.equal(close, 51);
  // Four times the units a pixel: a reach of 112 units, so each cluster is a marker and the next two,
  // 30 pixels from the next cluster, whose disc it does not overlap.
  assert.equal(far, 17);
  assert.equal(groupMarkers(markers, 16, 28).reduce((n, h) => n + h.members.length, 0), 51, "every marker in one cluster");
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

test("clusters whose discs would overlap on screen are one, centred on all their markers", () => {
  // Level 0: a reach of 28 units. (129, 100) is 29 from the first head, so it starts a second
  // cluster, whose centre is 15.5 pixels from the first's: their discs (13 pixels and a ring) overlap.
  const markers = [at(100, 100), at(128, 100), at(129, 100, { mine: true }), at(130, 100), at(300, 100)];
  const heads = groupMarkers(markers, 0, 28);
  assert.deepEqual(heads.map((h) => h.members.length), [4, 1]);
  assert.deepEqual(new Set(heads[0].members), new Set(markers.slice(0, 4)));
  assert.equal(heads[0].n, 4);
  assert.equal(heads[0].mine, true);
  assert.deepEqual(heads[0].centre, { x: (100 + 128 + 129 + 130) / 4, y: 100 });
});

/** Ten thousand markers around 400 places, as students are around cities (a fixed pseudo-random draw). */
function crowd(count = 10000) {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const places = [];
  for (let i = 0; i < 400; i++) places.push({ x: 2000 + random() * 61000, y: 12000 + random() * 36000 });
  const markers = [];
  for (let i = 0; i < count; i++) {
    // Most students in a few big places, some in many small ones.
    const p = places[Math.floor(Math.pow(random(), 2.5) * places.length)], spread = random() < 0.7 ? 20 : 600;
    markers.push(at(p.x + (random() - 0.5) * spread, p.y + (random() - 0.5) * spread, { count: random() < 0.1 ? 2 : 1 }));
  }
  return markers;
}

test("with ten thousand markers, no two drawings overlap at any zoom, and every marker is in one", () => {
  const markers = crowd();
  // From a close zoom to the whole world on a desktop (65535 units over 1400 pixels: level 44).
  for (const level of [0, 12, 24, 32, 40, 44, 52]) {
    const heads = groupMarkers(markers, level, 28, (m) => m.count);
    const unit = Math.pow(2, (level + 0.5) / 8);
    const drawn = heads.map((h) => ({
      p: h.members.length > 1 ? h.centre : h.members[0].at, r: h.members.length > 1 ? clusterRadius(h.n) + 2 : 6,
    }));
    for (let i = 0; i < drawn.length; i++) {
      for (let j = i + 1; j < drawn.length; j++) {
        const a = drawn[i], b = drawn[j], d = Math.hypot(a.p.x - b.p.x, a.p.y - b.p.y) / unit;
        assert.ok(d >= a.r + b.r - 1e-9, "level " + level + ": drawings " + i + " and " + j + " overlap: " + d.toFixed(1) + " px apart");
      }
    }
    const seen = new Set();
    for (const h of heads) for (const m of h.members) seen.add(m);
    assert.equal(seen.size, markers.length, "level " + level + ": every marker in a group");
    assert.equal(heads.reduce((n, h) => n + h.members.length, 0), markers.length, "level " + level + ": no marker twice");
    assert.equal(heads.reduce((n, h) => n + (h.members.length > 1 ? h.n : h.members[0].count), 0),
      markers.reduce((n, m) => n + m.count, 0), "level " + level + ": every student counted once");
  }
});

test("grouping ten thousand markers, overlaps merged, goes on where it stopped, in slices", () => {
  const markers = crowd();
  for (const level of [20, 44]) {
    const whole = groupMarkers(markers.map((m) => ({ ...m })), level, 28, (m) => m.count);
    const job = startGrouping(markers, level, 28);
    let clock = 0, slices = 0;
    while (!advanceGrouping(job, clock + 1, (m) => m.count, () => ++clock)) slices++;
    assert.ok(slices > 10, "it stopped and went on: " + slices);
    assert.deepEqual(job.heads.map((h) => [h.members.length, h.n]), whole.map((h) => [h.members.length, h.n]));
  }
});

test("zooming in can split a group only above the closest zoom, and only members beyond a cluster's reach there", () => {
  const closest = zoomLevel(500 / 1400), reach = 30, far = reach * Math.pow(2, closest / 8);
  const near = [{ at: { x: 100, y: 100 } }, { at: { x: 100 + far / 2, y: 100 } }];
  const apart = [{ at: { x: 100, y: 100 } }, { at: { x: 100 + far * 3, y: 100 } }];
  assert.equal(zoomCanSplit(apart, closest + 8, closest, reach), true);
  assert.equal(zoomCanSplit(near, closest + 8, closest, reach), false);
  // At the closest zoom nothing is closer: a group merged there (its discs would overlap) stays one.
  assert.equal(zoomCanSplit(apart, closest, closest, reach), false);
});
