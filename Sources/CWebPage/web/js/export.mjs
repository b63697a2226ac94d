// The exported map's page (`onthemap export --html`): the shared map (map-view.mjs) on the markers
// written into the file, with the names the terminal's map shows (from the file too), zoom buttons,
// and the search box, which filters the students by name or place, says how many are left and
// shows them all on the screen. Inlined into the file with the modules it imports (MapDocument), so
// it works offline.

import { mapView } from "./map-view.mjs";
import { countText, noMatchText } from "./text.mjs";

const byId = (id) => document.getElementById(id);
const search = byId("search"), count = byId("count");
const markers = Array.from(document.querySelectorAll(".marker"));
const total = document.querySelectorAll(".student").length;
const view = mapView({
  svg: byId("map"), world: byId("world"), layer: byId("markers"), popup: byId("popup"), heading: byId("popup-heading"),
  list: byId("popup-list"), close: byId("close"), entry: byId("popup-entry").content.firstElementChild,
  controls: document.querySelector(".zoom"),
});
view.setMarkers(markers);
view.setNames(JSON.parse(byId("map-names").textContent));
byId("zoom-in").addEventListener("click", () => view.zoomBy(2));
byId("zoom-out").addEventListener("click", () => view.zoomBy(0.5));
byId("zoom-world").addEventListener("click", () => view.world());

let fitting = 0;
search.addEventListener("input", () => {
  const q = search.value.trim(), found = view.filter(q);
  count.textContent = q && !found ? noMatchText(q)
    : (q ? countText(found) + " of " + countText(total) : countText(total)) + (total === 1 ? " student" : " students");
  // Once typing pauses, the matches are shown whole on the screen; no search: the first view.
  clearTimeout(fitting);
  fitting = setTimeout(() => (q ? view.fitTo(view.shown()) : view.fit()), 300);
});
