// A marker's students, and the search that leaves some of them. A marker (a `.marker` SVG group) holds
// one `.student` per student at its point (`data-name`, `data-place`, `data-url`; class `mine`); a
// cluster (markers.mjs) holds its markers as `members`. What is read from them is kept on the
// elements, so clustering ten thousand markers reads no element.

import { foldText } from "./text.mjs";

/** A marker's students, read once. */
export function studentsOf(m) {
  return m.students || (m.students = Array.from(m.querySelectorAll(".student")));
}

/** How many students a marker shows (the search leaves); kept, as `mine` is. */
export function countOf(m) {
  return m.count != null ? m.count : (m.count = shownStudents(m).length);
}

/** The students a marker or cluster shows (those the search leaves). */
export function shownStudents(m) {
  if (m.members) return [].concat(...m.members.map(shownStudents));
  markSearch(m);
  return studentsOf(m).filter((s) => !s.classList.contains("hidden"));
}

/** Whether a student's name or place holds `q` (folded): its key folded once, or given by the page. */
function matchesQuery(s, q) {
  return (s.find || (s.find = foldText(s.dataset.name + "\n" + s.dataset.place))).includes(q);
}

/** Leaves the students of `markers` whose name or place holds `text`; returns how many are left.
 *  What each marker shows is known at once (`filtered`: none of its students, `count`, `mine`); the
 *  page is told by `markSearch`, marker by marker, as they are drawn or read, the others a few at a
 *  time (map-view.mjs): ten thousand markers' classes written at once took 35 ms, a task a person
 *  feels (issue 41). */
export function filterStudents(markers, text) {
  const q = foldText(text.trim());
  let found = 0;
  for (const m of markers) {
    let here = 0, mine = false;
    for (const s of studentsOf(m)) {
      s.out = !!q && !matchesQuery(s, q);
      if (!s.out) {
        here++;
        mine = mine || s.classList.contains("mine");
      }
    }
    found += here;
    m.filtered = !here;
    m.mine = mine;
    m.count = here;
    m.marked = false;
  }
  return found;
}

/** Writes what the search left of a marker into the page, if not yet: `hidden` on the students left
 *  out and on the marker when none is left, `mine` when yours is left, its count's label. */
export function markSearch(m) {
  if (m.marked !== false) return;
  m.marked = true;
  for (const s of studentsOf(m)) s.classList.toggle("hidden", s.out);
  m.classList.toggle("hidden", m.filtered);
  m.classList.toggle("mine", m.mine);
  const label = m.querySelector("text");
  if (label) label.textContent = m.count;
}

/** The place students a few kilometres apart are in, as their pins name it (`data-place`, the words
 *  each posted, the geocoder's "Lima, Peru"): the one most of them name (the first of those, at a
 *  tie), or "" when none names one. What heads a cluster zooming cannot split, for "N students in
 *  Lima, Peru" rather than "near here". */
export function sharedPlace(students) {
  const counts = new Map();
  let best = "", most = 0;
  for (const s of students) {
    const place = s.dataset.place.trim();
    if (!place) continue;
    const n = (counts.get(place) || 0) + 1;
    counts.set(place, n);
    if (n > most) {
      most = n;
      best = place;
    }
  }
  return best;
}
