// The page's addresses: `#/` the map, `#/list`, `#/post`, `#/pin/OBJECTID` (that pin's popup). Back
// and Forward move between them, and a copied address opens the same view after login (app.mjs;
// a popup's Copy link copies its pin's, pin-link.mjs).
// Pure: node tests it (Tests/Browser/js/routes.test.mjs).

/** The view an address names: {view: "map" | "list" | "post" | "pin", id (a pin's objectId)}. An
 *  address it does not know is the map. */
export function parseRoute(hash) {
  const path = String(hash || "").replace(/^#/, "");
  if (path === "/list") return { view: "list" };
  if (path === "/post") return { view: "post" };
  const pin = /^\/pin\/([^/]+)$/.exec(path);
  if (pin) {
    try {
      const id = decodeURIComponent(pin[1]);
      if (id) return { view: "pin", id };
    } catch (e) {
      // a malformed escape: not an address of ours
    }
  }
  return { view: "map" };
}

/** The address of a view: what `parseRoute` reads back. */
export function routeHash(route) {
  switch (route.view) {
    case "list": return "#/list";
    case "post": return "#/post";
    case "pin": return "#/pin/" + encodeURIComponent(route.id);
    default: return "#/";
  }
}

/** The whole address of a view, on the page at `page` (its address, whatever view it shows). */
export function routeAddress(route, page) {
  return new URL(routeHash(route), page).href;
}
