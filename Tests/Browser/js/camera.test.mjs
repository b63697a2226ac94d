// The map's camera (web/js/camera.mjs): node --test, run by WebScriptTests.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  between, centreKeeping, clampCamera, clearView, densest, EDGE, firstUnit, firstView, fitView, mapPoint, pictureTransform,
  screenPoint, viewOf, worldView, zoomCamera, zoomRange,
} from "../../../Sources/CWebPage/web/js/camera.mjs";
import { WORLD } from "../../../Sources/CWebPage/web/js/mercator.mjs";

const wide = { w: 1400, h: 900 }, phone = { w: 390, h: 844 };
const close = (a, b, what) => assert.ok(Math.abs(a - b) < 1e-6, what + ": " + a + " is not " + b);

test("a value is kept within its range, and centred when there is none", () => {
  assert.equal(between(5, 0, 10), 5);
  assert.equal(between(-1, 0, 10), 0);
  assert.equal(between(11, 0, 10), 10);
  assert.equal(between(3, 10, 0), 5);
});

test("zoom stops at a view 500 units wide and at the world's width, on a tall screen too", () => {
  assert.deepEqual(zoomRange(wide), [500 / 1400, WORLD / 1400]);
  assert.deepEqual(zoomRange(phone), [500 / 390, WORLD / 390]);
});

test("the whole world is the world's width at every size, the band in the middle of the height", () => {
  const band = { top: 5000, bottom: 40000 };
  for (const size of [wide, phone, { w: 844, h: 390 }]) {
    const v = viewOf(worldView(size, band), size);
    close(v.x, 0, "left edge at " + size.w);
    close(v.width, WORLD, "the world's width at " + size.w);
  }
  // Wider than tall, the band's middle is the view's, within the world.
  const w = viewOf(worldView(wide, band), wide);
  close(w.y + w.height / 2, 22500, "the band's middle");
  // On a phone held upright, the world's square in the middle of the screen, sea above and below.
  const p = viewOf(worldView(phone, band), phone);
  close(p.y + p.height / 2, WORLD / 2, "the world's middle");
  assert.ok(p.height > WORLD, "taller than the world: " + p.height);
});

test("the view never shows past the world's edges, but for a drag's margin at its sides", () => {
  const cam = clampCamera({ x: -1e6, y: -1e6, unit: 1e6 }, wide);
  assert.equal(cam.unit, WORLD / 1400);
  const v = viewOf(cam, wide);
  close(v.x, -EDGE * cam.unit, "left edge");
  close(v.y, 0, "top edge");
  clampCamera(Object.assign(cam, { x: 1e9, y: 1e9, unit: 2 }), wide);
  const w = viewOf(cam, wide);
  close(w.x + w.width, WORLD + EDGE * 2, "right edge");
  close(w.y + w.height, WORLD, "bottom edge");
  // A screen taller than the world at its width shows it whole, centred up and down.
  const tall = viewOf(clampCamera({ x: 0, y: 0, unit: 1e6 }, phone), phone);
  close(tall.width, WORLD, "the whole width");
  close(tall.y + tall.height / 2, WORLD / 2, "centred");
});

test("the screen and the map agree on where a point is", () => {
  const cam = { x: 30000, y: 20000, unit: 3 };
  assert.deepEqual(mapPoint(cam, wide, 700, 450), { x: 30000, y: 20000 });
  assert.deepEqual(mapPoint(cam, wide, 0, 0), { x: 30000 - 2100, y: 20000 - 1350 });
  assert.deepEqual(screenPoint(cam, wide, { x: 30000 + 300, y: 20000 - 30 }), { x: 800, y: 440 });
  const at = mapPoint(cam, wide, 123, 456), centre = centreKeeping(at, 123, 456, 1.5, wide);
  const back = screenPoint({ ...centre, unit: 1.5 }, wide, at);
  close(back.x, 123, "x");
  close(back.y, 456, "y");
});

test("a zoom keeps the point under the pointer where it is, within the zoom's range", () => {
  const cam = { x: 30000, y: 20000, unit: 10 }, at = mapPoint(cam, wide, 100, 800);
  zoomCamera(cam, wide, 2, at);
  assert.equal(cam.unit, 5);
  const p = screenPoint(cam, wide, at);
  close(p.x, 100, "x");
  close(p.y, 800, "y");
  zoomCamera(cam, wide, 1000, at);
  assert.equal(cam.unit, 500 / 1400);
});

test("the densest window of values is found, and kept within the range", () => {
  // 50…54 holds four: the middle of its first and last.
  assert.equal(densest([1, 2, 3, 50, 52, 53, 54], 10, 0, 100), 52);
  assert.equal(densest([], 10, 0, 100), 50);
  assert.equal(densest([1, 2], 200, 0, 100), 50);
  assert.equal(densest([0, 1], 10, 0, 100), 5);
});

test("the first view shows the band across the screen, where most markers are, with yours whole", () => {
  const band = { top: 10000, bottom: 50000 };
  const m = (x, y, mine = false) => ({ at: { x, y }, mine });
  const crowd = [m(50000, 20000), m(50100, 20100), m(50200, 20050), m(5000, 40000)];
  const cam = firstView(crowd, phone, band);
  close(cam.unit, Math.min(WORLD / 390, 40000 / 844), "the band's height fits");
  const v = viewOf(cam, phone);
  assert.ok(v.x <= 50000 && v.x + v.width >= 50200, "the crowd is in view");
  const yours = firstView([...crowd, m(48000, 20000, true)], phone, band), w = viewOf(yours, phone);
  assert.ok(w.x + 40 * yours.unit <= 48000, "your pin is a cluster's width inside the left edge");
});

test("the first view's scale needs no marker: the band's height, the world's width, or the closest zoom", () => {
  const band = { top: 10000, bottom: 50000 };
  close(firstUnit(phone, band), 40000 / 844, "on a phone, the band's height");
  close(firstUnit(wide, band), 40000 / 900, "1400x900, the band's height");
  close(firstUnit({ w: 844, h: 390 }, band), WORLD / 844, "a phone turned, the world's width (less than the band)");
  close(firstUnit(wide, { top: 20000, bottom: 20100 }), 500 / 1400, "a thin band, as close as the map goes");
  // A login's map groups the markers at this scale's level before it knows where the view goes.
  const m = (x, y, mine = false) => ({ at: { x, y }, mine });
  for (const size of [wide, phone, { w: 844, h: 390 }]) {
    assert.equal(firstView([m(50000, 20000), m(5000, 40000, true)], size, band).unit, firstUnit(size, band));
  }
});

test("fitting points shows them all, inside the margin", () => {
  const points = [{ x: 1000, y: 2000 }, { x: 3000, y: 2500 }];
  const cam = fitView(points, wide);
  assert.deepEqual([cam.x, cam.y], [2000, 2250]);
  assert.equal(cam.unit, 2000 / (1400 - 160));
  for (const p of points) {
    const s = screenPoint(cam, wide, p);
    assert.ok(s.x >= 80 - 1e-9 && s.x <= 1320 + 1e-9 && s.y >= 0 && s.y <= 900, JSON.stringify(s));
  }
});

test("a picture drawn for one camera is moved and scaled to show another", () => {
  const drawn = { x: 30000, y: 20000, unit: 4 };
  assert.equal(pictureTransform(drawn, { x: 30000, y: 20000, unit: 4 }, wide), "translate(0px,0px)");
  assert.equal(pictureTransform(drawn, { x: 30400, y: 19600, unit: 4 }, wide), "translate(-100px,100px)");
  // Zoomed in twice around the same centre: twice the size, its top left corner half a screen out.
  assert.equal(pictureTransform(drawn, { x: 30000, y: 20000, unit: 2 }, wide), "translate(-700px,-450px) scale(2)");
});

// Where a disc is on the screen, in pixels, and whether the view cuts it: partly on the screen, or
// partly under a box of `controls`.
function cut(cam, size, d, controls) {
  const p = screenPoint(cam, size, d), r = d.r;
  const off = p.x + r <= 0 || p.x - r >= size.w || p.y + r <= 0 || p.y - r >= size.h;
  const whole = p.x - r >= 0 && p.x + r <= size.w && p.y - r >= 0 && p.y + r <= size.h &&
    !controls.some((b) => p.x + r > b.left && p.x - r < b.right && p.y + r > b.top && p.y - r < b.bottom);
  return !off && !whole;
}

test("the first view on a phone cuts no cluster at an edge nor hides one under the zoom buttons", () => {
  // At 390x844, as the page showed 10,000 students: a disc of 16 pixels at x −14 (2 pixels on the
  // screen), one at 387 (cut at the right) and one at 380 low down, under the zoom buttons' column.
  const cam = { x: 30000, y: 22000, unit: 40 }, controls = [{ left: 326, top: 660, right: 380, bottom: 834 }];
  const at = (sx, sy, r) => Object.assign(mapPoint(cam, phone, sx, sy), { r });
  const discs = [at(-14, 300, 16), at(387, 200, 13), at(360, 700, 13), at(200, 420, 19), at(120, 600, 13)];
  assert.equal(discs.filter((d) => cut(cam, phone, d, controls)).length, 3, "the view as it was cuts three");
  const clear = clearView(cam, phone, discs, controls, [40, 41, 42]);
  const still = discs.filter((d) => cut(clear, phone, d, controls));
  assert.deepEqual(still, [], "cut: " + JSON.stringify(still.map((d) => screenPoint(clear, phone, d))));
  // A small move: a quarter of the screen at most, at a scale a little further out at most.
  assert.ok(Math.abs(clear.x - cam.x) <= phone.w / 4 * clear.unit && Math.abs(clear.y - cam.y) <= phone.h / 4 * clear.unit);
  assert.ok(clear.unit >= 40 && clear.unit <= 42);
  // Nothing cut: the camera stays.
  const fine = [at(200, 420, 19)];
  assert.deepEqual(clearView(cam, phone, fine, controls, [40, 41]), clampCamera({ ...cam }, phone));
});

test("the view clear of the edges keeps yours whole, and cuts the fewest where none is clear", () => {
  const cam = { x: 30000, y: 22000, unit: 40 }, controls = [];
  const at = (sx, sy, r) => Object.assign(mapPoint(cam, phone, sx, sy), { r });
  // Discs side by side along the left edge, every 20 pixels: some is cut wherever the edge goes.
  const row = [-40, -20, 0, 20, 40, 60, 80].map((sx) => at(sx, 400, 13));
  const mine = at(30, 200, 13);
  const clear = clearView(cam, phone, [...row, mine], controls, [40], mine);
  assert.ok(!cut(clear, phone, mine, controls) && screenPoint(clear, phone, mine).x - 13 >= 0, "yours whole");
  assert.ok(row.filter((d) => cut(clear, phone, d, controls)).length <= 1);
});
