// A pin's address, copied from its popup to share it: the page installed to a home screen opens
// without an address bar to copy it from. The address opens that pin's popup, after login
// (routes.mjs, app.mjs). The exported map's popup has no such button: a file has no server.

import { toast } from "./api.mjs";
import { routeAddress } from "./routes.mjs";

/** Copies the address of the pin `id` to the clipboard, and says whether it could. Resolves with
 *  whether it did. */
export async function copyPinLink(id) {
  const address = routeAddress({ view: "pin", id }, location.href);
  // No clipboard API on a page that is not a secure context (plain http from another machine).
  if (!navigator.clipboard || !navigator.clipboard.writeText) {
    toast("Could not copy the link: this browser copies only from a secure (https) page.");
    return false;
  }
  try {
    await navigator.clipboard.writeText(address);
    toast("Link copied.");
    return true;
  } catch (e) {
    toast("Could not copy the link: the browser did not allow the page to use the clipboard.");
    return false;
  }
}
