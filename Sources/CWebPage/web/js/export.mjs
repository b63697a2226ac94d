// The exported map's page (`onthemap export --html`): the shared map (map-view.mjs) on the markers
// written into the file, and the search box, which filters them by name or place and says how many
// are left. Inlined into the file with the modules it imports (MapDocument), so it works offline.

import { mapView } from "./map-view.mjs";

const byId = (id) => document.getElementById(id);
const search = byId("search"), count = byId("count");
const markers = Array.from(document.querySelectorAll(".marker"));
const total = document.querySelectorAll(".student").length;
const view = mapView({
  svg: byId("map"), world: byId("world"), layer: byId("markers"), popup: byId("popup"), heading: byId("popup-heading"),
  list: byId("popup-list"), close: byId("close"), entry: byId("popup-entry").content.firstElementChild,
});
view.setMarkers(markers);
search.addEventListener("input", () => {
  const q = search.value.trim(), found = view.filter(q);
  count.textContent = (q ? found + " of " + total : total) + " students";
});
