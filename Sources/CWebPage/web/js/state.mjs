// What the page's screens share: its elements by id, the operator's settings, and the state of the
// session and the pins. The page is a client like the CLI: it speaks the public API only
// (docs/API.md), with paths relative to the page, so it also works under a prefix behind a proxy.

export const $ = (id) => document.getElementById(id);

/** A setting the server put in the page as a `<meta name="onthemap-…">` (docs/DEPLOY.md). */
function setting(name) {
  const meta = document.querySelector('meta[name="onthemap-' + name + '"]');
  return meta ? meta.content : "";
}

/** The operator's settings: how many pins, how often to check for changes, where to sign up. */
export const settings = {
  pins: Math.max(1, parseInt(setting("pins"), 10) || 100),
  poll: Math.max(1, parseInt(setting("poll-seconds"), 10) || 10),
  signUp: setting("signup-url"),
};

/** `session`: {id, key, xsrf, first, last} while logged in. `epoch`: bumped at each logout, so an
 *  answer to a request made before it is dropped. `students`: the pins shown, newest first, each
 *  with `key` (its name and place folded for search) and `marker` (its element on the map). */
export const state = {
  session: null, epoch: 0, students: [], etag: null, newest: "", mine: null, loaded: false,
  pollTimer: 0, polling: false,
};

/** The map's controls (map-view.mjs), once the page has started, and what the app does on events the
 *  screens raise (set by app.mjs: a module does not import the one that imports it). */
export const ui = { view: null, go: null, applyRoute: null, pinsDrawn: null };
