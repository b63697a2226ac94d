// The names on a browser's map (web/js/names.mjs): node --test, run by WebScriptTests.
import assert from "node:assert/strict";
import { test } from "node:test";
import { layoutNames, ruleAt, scaleOf, TERMINAL_WORLD_PIXELS } from "../../../Sources/CWebPage/web/js/names.mjs";

// The terminal's rule, as MapLabels.webJSON writes it from LabelLayout.
const rule = {
  scales: [1.5, 3, 6, 12, 24, 48], ranks: [3, 4, 5, 7, 7, 7, 7],
  populations: [20000000, 8000000, 3000000, 1000000, 400000, 150000, 50000], largeCountryPixels: 48,
};
const width = (text) => text.length * 7;

test("the rule at a scale is the terminal's", () => {
  assert.deepEqual(ruleAt(rule, 1), { rank: 3, population: 20000000 });
  assert.deepEqual(ruleAt(rule, 1.5), { rank: 4, population: 8000000 });
  assert.deepEqual(ruleAt(rule, 47.9), { rank: 7, population: 150000 });
  assert.deepEqual(ruleAt(rule, 500), { rank: 7, population: 50000 });
  // A world 640 pixels wide is an 80-column terminal's.
  assert.equal(scaleOf(65535 / TERMINAL_WORLD_PIXELS), 1);
});

// A view of the whole world, 1280 pixels wide (scale 2): countries up to rank 4, places of 8 million.
const world = { x: 0, y: 0, unit: 65535 / 1280, w: 1280, h: 1280 };
const at = (px, py) => [Math.round(px * world.unit), Math.round(py * world.unit)];

test("countries by prominence and places by population, as the scale allows", () => {
  const data = {
    rule,
    countries: [[...at(300, 300), 2, "Big", "B."], [...at(900, 300), 5, "Small", ""], [...at(600, 900), 4, "Middling", "M."]],
    places: [[...at(700, 700), 9000000, "Huge"], [...at(100, 1000), 5000000, "Large"]],
  };
  const names = layoutNames(data, world, [], width);
  assert.deepEqual(names.map((n) => n.text), ["Big", "Middling", "Huge"]);
  assert.deepEqual(names[2], { text: "Huge", kind: "place", x: at(700, 700)[0], y: at(700, 700)[1], anchor: "middle", dx: 0, dy: 0 });
});

test("the largest places are named beside the cluster on them, as the terminal writes \"*7 Lyon\"", () => {
  // Students pin their city: a cluster of 2 (radius 11, its box 15 a side of its point) on Sydney,
  // and a smaller place nearby with none.
  const [sx, sy] = [700, 500];
  const data = { rule, countries: [], places: [[...at(sx, sy), 9000000, "Sydney"], [...at(sx, sy - 26), 8500000, "Newcastle"]] };
  const cluster = { left: sx - 15, right: sx + 15, top: sy - 15, bottom: sy + 15 };
  const names = layoutNames(data, world, [cluster], width);
  assert.deepEqual(names.map((n) => n.text), ["Sydney", "Newcastle"]);
  assert.equal(names[0].anchor, "start");
  // Its box starts past the cluster's (4 pixels of margin on each).
  assert.ok(names[0].dx - 4 >= 15, "clear of the cluster: " + names[0].dx);
});

test("a large country covered at its point by a cluster is named a line above or below it", () => {
  const [x, y] = at(640, 640);
  // Australia's extent: drawn hundreds of pixels across at this scale.
  const data = { rule, countries: [[x, y, 2, "Australia", "Austl.", 5043]], places: [] };
  const cluster = { left: 620, right: 660, top: 625, bottom: 655 };
  const [named] = layoutNames(data, world, [cluster], width);
  assert.equal(named.text, "Australia");
  assert.ok(named.dy !== 0, "a line away: " + named.dy);
  // A small country is not moved off its point: its short name, else none.
  const small = { rule, countries: [[x, y, 2, "Tiny", "", 100]], places: [] };
  assert.deepEqual(layoutNames(small, world, [cluster], width), []);
});

test("a name goes only where it covers no pin and no other name, else its short name, else beside it", () => {
  const [x, y] = at(640, 640);
  const data = { rule, countries: [[x, y, 2, "A very long country", "Short"]], places: [[...at(700, 300), 9000000, "City"]] };
  // A pin on the long name's left half: the short name fits.
  const pin = { left: 560, right: 580, top: 630, bottom: 650 };
  assert.deepEqual(layoutNames(data, world, [pin], width).map((n) => n.text), ["Short", "City"]);
  // A pin on the city's point: its name goes to its right.
  const [cx, cy] = [700, 300];
  const city = layoutNames(data, world, [{ left: cx - 8, right: cx + 8, top: cy - 8, bottom: cy + 8 }], width).find((n) => n.text === "City");
  assert.equal(city.anchor, "start");
  // Two places where one name would cover the other: the smaller is not named.
  const crowded = { rule, countries: [], places: [[...at(100, 100), 9000000, "First"], [...at(110, 100), 8500000, "Second"]] };
  assert.deepEqual(layoutNames(crowded, world, [], width).map((n) => n.text), ["First"]);
});

test("nothing outside the screen or cut by its edge", () => {
  const data = { rule, countries: [[...at(1279, 600), 2, "Edge", ""], [...at(-50, 600), 2, "Gone", ""]], places: [] };
  assert.deepEqual(layoutNames(data, world, [], width), []);
});

test("a country drawn smaller than the rule's pixels is not named, as the terminal names none under a cell", () => {
  const sized = { ...rule, countryPixels: 8 };
  const data = {
    rule: sized,
    // Extents in map units: 4 pixels across at this scale, then 40.
    countries: [[...at(300, 300), 2, "Speck", "", Math.round(4 * world.unit)], [...at(900, 300), 2, "Land", "", Math.round(40 * world.unit)]],
    places: [],
  };
  assert.deepEqual(layoutNames(data, world, [], width).map((n) => n.text), ["Land"]);
});

test("a name beside its dot keeps the dot's other side free: no \"Ankara • Kırıkkale\"", () => {
  // Ankara with a cluster on it, too near the screen's right edge for its name on the right: named
  // left of its point, with a dot there. Kale, 40 pixels east, centred on its point, started 11
  // pixels past Ankara's dot, closer than Ankara's name (15 pixels), as if the dot were Kale's.
  const [sx, sy] = [1216, 500];
  const cluster = { left: sx - 15, right: sx + 15, top: sy - 15, bottom: sy + 15 };
  const data = { rule, countries: [], places: [[...at(sx, sy), 9000000, "Ankara"], [...at(sx + 40, sy), 8500000, "Kale"]] };
  const names = layoutNames(data, world, [cluster], width);
  assert.equal(names[0].text, "Ankara");
  assert.equal(names[0].anchor, "end");
  const gap = -names[0].dx;
  for (const n of names.slice(1)) {
    const left = sx + 40 + n.dx - (n.anchor === "middle" ? width(n.text) / 2 : n.anchor === "end" ? width(n.text) : 0);
    assert.ok(left >= sx + 2 * gap, n.text + " starts " + (left - sx) + " pixels past Ankara's dot, Ankara's name ends " + gap + " before it");
  }
});

test("a name is not put beside its dot just past a neighbour's name: no \"Yozgat • Sorgun\"", () => {
  // Yozgat named first, centred on its point; Sorgun, 40 pixels east with a cluster on it, named
  // right of its dot there, the dot just past Yozgat's name, read as if it were Yozgat's.
  const [sx, sy] = [700, 500];
  const cluster = { left: sx + 40 - 15, right: sx + 40 + 15, top: sy - 15, bottom: sy + 15 };
  const data = { rule, countries: [], places: [[...at(sx, sy), 9000000, "Yozgat"], [...at(sx + 40, sy), 8500000, "Sorgun"]] };
  const names = layoutNames(data, world, [cluster], width);
  assert.equal(names[0].text, "Yozgat");
  const yozgatRight = sx + width("Yozgat") / 2;
  for (const n of names.slice(1)) {
    if (n.anchor === "middle") continue;
    const gap = Math.abs(n.dx);
    assert.ok(sx + 40 - yozgatRight >= 2 * gap, n.text + "'s dot is " + (sx + 40 - yozgatRight) + " pixels past Yozgat's name, its own name " + gap + " away");
  }
});
