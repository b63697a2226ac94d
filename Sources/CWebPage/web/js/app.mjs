// The page's start: the map, the controls' events, the addresses, and the first screen — the view
// the address names if this tab holds a session (checked with the server meanwhile: an ended one
// goes to the login screen with a message), the login screen otherwise. Each screen is a module of
// its own: session.mjs, pins.mjs (the map's pins), list.mjs, post.mjs; routes.mjs the addresses.

import { focusBeforeAlert, hideAlert, toast } from "./api.mjs";
import { listFocused, listKey, listScrolled, listShown, onMapOf, openRow, showTab } from "./list.mjs";
import { mapView } from "./map-view.mjs";
import { copyPinLink } from "./pin-link.mjs";
import { openPin, refresh, search, syncMapSearch } from "./pins.mjs";
import { answered, closePost, find, finish, followZoom, openPost, previewLayer } from "./post.mjs";
import { parseRoute, routeHash } from "./routes.mjs";
import { enter, leave, loadSession, login, logout } from "./session.mjs";
import { $, settings, state, ui } from "./state.mjs";
import { isWebLink } from "./text.mjs";

ui.view = mapView({
  svg: $("map"), world: $("world"), layer: $("markers"), popup: $("popup"), heading: $("popup-heading"), list: $("popup-list"),
  close: $("close"), entry: $("popup-entry").content.firstElementChild, controls: document.querySelector("#map-panel .zoom"), onView: followZoom,
  active: () => !!state.session && $("list-view").hidden && !$("overwrite").open,
  onPopup: popupChanged,
});
$("markers").parentNode.appendChild(previewLayer);
ui.view.setMarkers([]);

// The operator's sign-up page, when there is one (docs/DEPLOY.md: --signup-url).
if (isWebLink(settings.signUp)) {
  $("signup").href = settings.signUp;
  $("signup-line").hidden = false;
}

/* Addresses: every view the bar opens has one, so Back and Forward move between them. */

/** Opens a view by its address: a new entry in the history, or in place of the current one. */
function go(route, replace) {
  const hash = routeHash(route);
  if (location.hash === hash) applyRoute();
  else if (replace) {
    history.replaceState(null, "", hash);
    applyRoute();
  } else {
    location.hash = hash;
  }
}

/** A pin asked for before its list came: opened once the pins are drawn. */
let pendingPin = null;

/** Shows the view the address names (nothing while logged out: the address waits for the login).
 *  What the address hides does not take the focus with it (Back from a popup, Forward into the
 *  list): a popup closed puts it back on its pin, and anything else hidden on the selected tab.
 *  `entered` (true only from login, `enter`): the whole screen was just shown, and the focus is
 *  placed once the browser has drawn it. */
function applyRoute(entered) {
  popupPushed = false;
  const left = leaving;
  leaving = false;
  if (!state.session) return;
  const route = parseRoute(location.hash);
  pendingPin = null;
  if (route.view !== "post") closePost(route.view === "map" && !$("post").hidden, !$("post").hidden);
  if (route.view === "list") {
    syncMapSearch();
    showTab("list");
  } else {
    showTab("map");
    syncMapSearch();
    if (route.view === "post") openPost();
    else if (route.view === "pin") {
      if (state.loaded) showPin(route.id);
      else pendingPin = route.id;
    } else if (ui.view.selected() && !left) {
      ui.view.close();
    }
  }
  if (entered === true) afterNextFrame(keepFocus);
  else keepFocus();
}

/** Runs `f` after the next frame is drawn. Giving an element the focus makes the browser lay the
 *  page out there and then: for the screen just shown at login, inside the task that showed it (the
 *  login's task took 26–71 ms with 10,000 students, 3–16 ms with the focus placed after the frame,
 *  whose layout it then finds done). */
function afterNextFrame(f) {
  requestAnimationFrame(() => setTimeout(f));
}

/** The focus on the selected tab when what had it is no longer seen (hidden, inert, gone). */
function keepFocus() {
  if (!state.session) return;
  const a = document.activeElement;
  // The bar is always seen while shown: asking the layout where its tab is made the browser lay out
  // the map the route had just changed, there and then (18–25 ms at 10,000 students).
  const selected = document.querySelector('[role="tab"][aria-selected="true"]');
  // A tab no longer selected (Back from the List) hands the focus to the one that is: Enter on the
  // old one went straight back.
  if (a && a.getAttribute("role") === "tab" && a !== selected && !$("bar").hidden) {
    selected.focus();
    return;
  }
  if (a && !$("bar").hidden && $("bar").contains(a) && !a.closest("[inert]")) return;
  // Hidden or inert first, which needs no layout: the focus is most often in what was just hidden.
  if (a && a !== document.body && a.isConnected && !a.closest("[hidden],[inert]") && a.getClientRects().length) return;
  if (!$("bar").hidden) selected.focus();
}

/** Opens a pin's popup; an address of a pin not on the map says so, and shows the map (the popup
 *  open before closed, the focus back on its pin). */
function showPin(id) {
  if (!openPin(id)) {
    toast("That pin is not among those on the map: it may have moved or gone.");
    history.replaceState(null, "", "#/");
    if (ui.view.selected()) ui.view.close();
  }
}

/** A pin's popup opened on purpose (a click, Enter) has the pin's address; closed, the map's. */
function popupChanged(marker, pinned) {
  const route = parseRoute(location.hash);
  if (marker && pinned && !marker.members) {
    const id = marker.getAttribute("data-object-id") || marker.querySelector(".student").dataset.objectId;
    if (!$("post").hidden) {
      // A pin opened from the post form leaves the form, as its address says, in place of #/post.
      closePost(false, false);
      history.replaceState(null, "", routeHash({ view: "pin", id }));
      popupPushed = false;
    } else if (route.view === "pin" && popupPushed) {
      // Another pin's popup in place of the one this added: one entry for the popup, whichever.
      if (route.id !== id) history.replaceState(null, "", routeHash({ view: "pin", id }));
    } else if (route.view !== "pin" || route.id !== id) {
      history.pushState(null, "", routeHash({ view: "pin", id }));
      popupPushed = true;
    }
  } else if (!marker && route.view === "pin") {
    // Closed: the entry the popup added goes (Back then leaves the map, not the map again); an
    // address opened from elsewhere is replaced.
    if (popupPushed) {
      // The popup is already closed, and what the person opened meanwhile (a cluster's list, which has
      // no address of its own) stays open when Back's address arrives.
      leaving = true;
      history.back();
    } else history.replaceState(null, "", "#/");
    popupPushed = false;
  }
}

/** Whether the address is going back from a popup's entry the popup closed itself (`popupChanged`). */
let leaving = false;

/** Whether the address's last entry is one a popup added (`popupChanged`). */
let popupPushed = false;

ui.go = go;
ui.applyRoute = applyRoute;
ui.pinsDrawn = () => {
  if (pendingPin) {
    const id = pendingPin;
    pendingPin = null;
    showPin(id);
    keepFocus();
  }
};
window.addEventListener("hashchange", applyRoute);

/* The bar: tabs (WAI-ARIA's tabs pattern: arrow keys, Home and End move between them and show
   theirs), search, refresh, post, log out. */
const tabs = [$("map-tab"), $("list-tab")];
$("map-tab").addEventListener("click", () => go({ view: "map" }));
$("list-tab").addEventListener("click", () => go({ view: "list" }));
$("bar").querySelector('[role="tablist"]').addEventListener("keydown", (ev) => {
  const at = tabs.indexOf(ev.target);
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: tabs.length - 1 }[ev.key];
  if (at < 0 || to === undefined) return;
  ev.preventDefault();
  const tab = tabs[(to + tabs.length) % tabs.length];
  tab.focus();
  tab.click();
});
$("search").addEventListener("input", search);
$("refresh").addEventListener("click", () => refresh());
$("post-open").addEventListener("click", () => go({ view: "post" }));
$("logout").addEventListener("click", logout);

/* A pin's popup: each student's Copy link (index.html's popup entry). */
$("popup-list").addEventListener("click", (ev) => {
  const copy = ev.target.closest(".copy-link");
  // Marked on the button too (app.css): on a phone the popup covers the toast.
  if (copy) copyPinLink(copy.closest("li").student.dataset.objectId).then((done) => copy.classList.toggle("copied", done));
});

/* The map's own buttons. */
$("zoom-in").addEventListener("click", () => ui.view.zoomBy(2));
$("zoom-out").addEventListener("click", () => ui.view.zoomBy(0.5));
$("zoom-world").addEventListener("click", () => ui.view.world());

/* The list. */
// A row is a link (list.mjs): the browser opens it; a row without one opens nothing. Its Map button
// opens its pin's address: the map, that pin's popup open.
$("student-list").addEventListener("click", (ev) => {
  const shown = onMapOf(ev.target);
  if (shown) return go({ view: "pin", id: shown.objectId });
  if (ev.target.closest("a[href]")) return;
  openRow(ev.target.closest("li"));
});
$("student-list").addEventListener("keydown", listKey);
$("student-list").addEventListener("focusin", listFocused);
$("list-view").addEventListener("scroll", listScrolled, { passive: true });
// A phone turned, a window resized: the rows may have another height (app.css, --row).
window.addEventListener("resize", () => { if (listShown()) listScrolled(); });

/* Login, posting, messages. */
$("login").addEventListener("submit", login);
$("post").addEventListener("submit", find);
$("post-cancel").addEventListener("click", () => go({ view: "map" }, true));
$("post-finish").addEventListener("click", finish);
$("overwrite").addEventListener("close", answered);
$("alert-close").addEventListener("click", () => {
  hideAlert();
  // Its × had the focus and is gone with it: the focus goes back where the alert found it, or, that
  // gone too, to the selected tab (logged in) or the login's first field, never to the page's body.
  const back = focusBeforeAlert();
  if (back) back.focus();
  else if (state.session) keepFocus();
  else if (!$("login").hidden) $("login-username").focus();
});
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && !$("post").hidden && !$("overwrite").open) go({ view: "map" }, true);
});

/* The names on the map: the terminal map's, from the server (MapLabels.webJSON), once the page has
   drawn what it needs first. */
async function loadNames() {
  try {
    const answer = await fetch(new URL("../names.json", import.meta.url));
    if (answer.ok) ui.view.setNames(await answer.json());
  } catch (e) {
    // Neither the server nor the service worker's copy (sw.js keeps names.json with the page's
    // files, once it is installed; a browser without service workers keeps nothing): no names.
  }
}
setTimeout(loadNames, 0);

/* Installed to a home screen, and useful offline: the service worker keeps the page's files and the
   last list seen (sw.js). */
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("sw.js").catch(() => {});
}

const saved = loadSession();
if (saved) {
  state.session = saved;
  enter();
} else {
  leave();
}
