// The search on the map's markers (web/js/students.mjs): decided at once, written into the page marker
// by marker. node --test, run by WebScriptTests; the elements are stand-ins that count what is written.
import assert from "node:assert/strict";
import { test } from "node:test";
import { countOf, filterStudents, markSearch, sharedPlace, shownStudents } from "../../../Sources/CWebPage/web/js/students.mjs";

let writes = 0;

function classes(...names) {
  const set = new Set(names);
  return {
    contains: (name) => set.has(name),
    toggle(name, on) {
      if (set.has(name) !== on) writes++;
      if (on) set.add(name);
      else set.delete(name);
      return on;
    },
  };
}

function student(name, place, mine) {
  return { dataset: { name, place }, classList: mine ? classes("student", "mine") : classes("student") };
}

/** A marker of the page's (one student, no label) or the export's (several at one point, a label). */
function marker(students, labelled) {
  const label = labelled ? { textContent: String(students.length) } : null;
  return {
    label, classList: classes("marker"),
    querySelectorAll: (selector) => (selector === ".student" ? students : []),
    querySelector: (selector) => (selector === "text" ? label : null),
  };
}

test("a search decides what each marker shows at once, and writes nothing into the page", () => {
  const markers = [
    marker([student("Ada Lovelace", "London")]), marker([student("Alan Turing", "Wilmslow")]),
    marker([student("Grace Hopper", "Arlington", true)]),
  ];
  writes = 0;
  assert.equal(filterStudents(markers, "LOND"), 1);
  assert.equal(writes, 0, "no class written for ten thousand markers in the search's task");
  assert.deepEqual(markers.map((m) => [m.filtered, m.count, m.mine]), [[false, 1, false], [true, 0, false], [true, 0, false]]);
  assert.ok(!markers[1].classList.contains("hidden"), "not yet in the page");
});

test("markSearch writes a marker's classes and its count once", () => {
  const yours = student("Grace Hopper", "Trondheim", true);
  const shared = marker([student("Alan Turing", "Trondheim"), yours, student("Ada Lovelace", "Trondheim")], true);
  const away = marker([student("Katherine Johnson", "Malvik")]);
  filterStudents([shared, away], "turing");
  markSearch(shared);
  markSearch(away);
  assert.equal(shared.label.textContent, 1);
  assert.ok(!shared.classList.contains("hidden") && !shared.classList.contains("mine"), "yours is left out: not drawn as yours");
  assert.ok(yours.classList.contains("hidden"));
  assert.ok(away.classList.contains("hidden"));
  writes = 0;
  markSearch(shared);
  markSearch(away);
  assert.equal(writes, 0, "written already");
  filterStudents([shared, away], "");
  markSearch(shared);
  assert.ok(shared.classList.contains("mine") && !yours.classList.contains("hidden"), "an empty search shows all again");
});

test("a popup's students are those the search left, before the page is told", () => {
  const shared = marker([student("Alan Turing", "Trondheim"), student("Ada Lovelace", "Trondheim")], true);
  filterStudents([shared], "ada");
  assert.deepEqual(shownStudents(shared).map((s) => s.dataset.name), ["Ada Lovelace"]);
  assert.deepEqual(shownStudents({ members: [shared] }).map((s) => s.dataset.name), ["Ada Lovelace"], "a cluster's too");
  assert.equal(countOf(shared), 1);
});

test("students a few kilometres apart are in the place most of their pins name", () => {
  const at = (...places) => places.map((place) => ({ dataset: { place } }));
  assert.equal(sharedPlace(at("Seoul, South Korea", "Seoul, South Korea")), "Seoul, South Korea");
  assert.equal(sharedPlace(at("Gangnam", "Seoul, South Korea", "Seoul, South Korea ")), "Seoul, South Korea");
  assert.equal(sharedPlace(at("Lima, Peru", "Callao, Peru")), "Lima, Peru");
  assert.equal(sharedPlace(at("", " ")), "");
});
