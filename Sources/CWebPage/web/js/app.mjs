// The page's start: the map, the controls' events, and the first screen — the map at once if this
// tab holds a session (checked with the server meanwhile: an ended one goes to the login screen
// with a message), the login screen otherwise. Each screen is a module of its own: session.mjs,
// pins.mjs (the map's pins), list.mjs, post.mjs.

import { hideAlert } from "./api.mjs";
import { openRow, showTab } from "./list.mjs";
import { mapView } from "./map-view.mjs";
import { refresh, search } from "./pins.mjs";
import { answered, closePost, find, finish, followZoom, openPost, previewLayer } from "./post.mjs";
import { enter, leave, loadSession, login, logout } from "./session.mjs";
import { $, settings, state, ui } from "./state.mjs";
import { isWebLink } from "./text.mjs";

ui.view = mapView({
  svg: $("map"), world: $("world"), layer: $("markers"), popup: $("popup"), heading: $("popup-heading"), list: $("popup-list"),
  close: $("close"), entry: $("popup-entry").content.firstElementChild, onView: followZoom,
  active: () => !!state.session && $("list-view").hidden && !$("overwrite").open,
});
$("markers").parentNode.appendChild(previewLayer);
ui.view.setMarkers([]);

// The operator's sign-up page, when there is one (docs/DEPLOY.md: --signup-url).
if (isWebLink(settings.signUp)) {
  $("signup").href = settings.signUp;
  $("signup-line").hidden = false;
}

$("login").addEventListener("submit", login);
$("logout").addEventListener("click", logout);
$("refresh").addEventListener("click", () => refresh());
$("map-tab").addEventListener("click", () => showTab("map"));
$("list-tab").addEventListener("click", () => {
  closePost(true);
  showTab("list");
});
$("search").addEventListener("input", search);
$("student-list").addEventListener("click", (ev) => {
  if (ev.target.closest("a")) return;
  openRow(ev.target.closest("li"));
});
$("student-list").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && ev.target.matches("li")) openRow(ev.target);
});
$("post-open").addEventListener("click", openPost);
$("post").addEventListener("submit", find);
$("post-cancel").addEventListener("click", () => closePost(true));
$("post-finish").addEventListener("click", finish);
$("overwrite").addEventListener("close", answered);
$("alert-close").addEventListener("click", hideAlert);
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && !$("post").hidden && !$("overwrite").open) closePost(true);
});

const saved = loadSession();
if (saved) {
  state.session = saved;
  enter();
} else {
  leave();
}
