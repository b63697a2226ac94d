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
  return studentsOf(m).filter((s) => !s.classList.contains("hidden"));
}

/** Whether a student's name or place holds `q` (folded): its key folded once, or given by the page. */
function matchesQuery(s, q) {
  return (s.find || (s.find = foldText(s.dataset.name + "\n" + s.dataset.place))).includes(q);
}

/** Leaves the students of `markers` whose name or place holds `text`, hiding the others and the
 *  markers left with none; a marker's count, label and `mine` follow. Returns how many are left. */
export function filterStudents(markers, text) {
  const q = foldText(text.trim());
  let found = 0;
  for (const m of markers) {
    const students = studentsOf(m);
    let here = 0, mine = false;
    for (const s of students) {
      const out = !!q && !matchesQuery(s, q);
      s.classList.toggle("hidden", out);
      if (!out) {
        here++;
        mine = mine || s.classList.contains("mine");
      }
    }
    const label = m.querySelector("text");
    found += here;
    m.filtered = !here;
    m.classList.toggle("hidden", !here);
    if (label) label.textContent = here;
    m.classList.toggle("mine", mine);
    m.mine = mine;
    m.count = here;
  }
  return found;
}
