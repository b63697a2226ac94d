// The list: name, place, link and when each pin was updated, newest first (the order the server
// sends); a tap on a row opens its link in a new tab, as the seeds' table does. Drawn when first
// shown after a change: the rows cost nothing while the map is on screen.

import { isMine, nameOf } from "./pins.mjs";
import { $, state, ui } from "./state.mjs";
import { ago, foldText, isWebLink } from "./text.mjs";

export function drawList() {
  const ol = $("student-list"), frag = document.createDocumentFragment(), tpl = $("list-entry").content.firstElementChild;
  for (const s of state.students) {
    const li = tpl.cloneNode(true), link = li.querySelector(".link"), time = li.querySelector(".updated");
    const name = nameOf(s), when = Date.parse(s.updatedAt);
    li.dataset.objectId = s.objectId;
    li.dataset.find = foldText(name + "\n" + s.mapString);
    li.querySelector(".name").textContent = name;
    li.querySelector(".you").hidden = !isMine(s);
    li.querySelector(".place").textContent = s.mapString;
    if (isWebLink(s.mediaURL)) {
      const a = document.createElement("a");
      a.href = s.mediaURL;
      a.target = "_blank";
      a.rel = "noopener noreferrer";
      a.textContent = s.mediaURL;
      a.tabIndex = -1;
      link.append(a);
      li.dataset.url = s.mediaURL;
      li.setAttribute("aria-label", name.slice(0, 120) + ", " + s.mapString.slice(0, 120) + ": open their link");
    } else {
      link.textContent = s.mediaURL || "no link";
      link.classList.add("nolink");
    }
    time.dateTime = s.updatedAt;
    time.textContent = ago(s.updatedAt);
    if (!isNaN(when)) time.title = new Date(when).toLocaleString();
    frag.appendChild(li);
  }
  ol.replaceChildren(frag);
  state.listDirty = false;
  $("list-empty").textContent = state.students.length ? "" : "No pins yet. Post yours with the pin button.";
  $("list-empty").hidden = !!state.students.length;
  filterList($("search").value);
}

export function filterList(q) {
  q = foldText(q.trim());
  for (const row of $("student-list").children) row.hidden = !!q && row.dataset.find.indexOf(q) < 0;
}

export function openRow(li) {
  if (li && li.dataset.url && isWebLink(li.dataset.url)) window.open(li.dataset.url, "_blank", "noopener,noreferrer");
}

export function showTab(which) {
  const list = which === "list";
  if (list && state.listDirty) drawList();
  else if (list) filterList($("search").value);
  $("list-view").hidden = !list;
  $("map-tab").setAttribute("aria-selected", String(!list));
  $("list-tab").setAttribute("aria-selected", String(list));
  if (list) ui.view.hide();
  $("count").hidden = list || !state.session;
}
