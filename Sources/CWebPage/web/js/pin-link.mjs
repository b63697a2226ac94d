// A pin's address, copied from its popup to share it: the page installed to a home screen opens
// without an address bar to copy it from. The address opens that pin's popup, after login
// (routes.mjs, app.mjs). The exported map's popup has no such button: a file has no server.

import { showAlert, toast } from "./api.mjs";
import { copyFailure } from "./messages.mjs";
import { routeAddress } from "./routes.mjs";

/** Copies the address of the pin `id` to the clipboard, and says whether it could: done in the
 *  toast (the button is ticked too, app.mjs: on a phone the popup covers the toast); not done in
 *  the alert, which is above the popup, with the address to copy by hand. Resolves with whether it
 *  did. */
export async function copyPinLink(id) {
  const address = routeAddress({ view: "pin", id }, location.href);
  // No clipboard API on a page that is not a secure context (plain http from another machine): the
  // older way, a selected text copied, works there.
  if (!navigator.clipboard || !navigator.clipboard.writeText) {
    if (copySelected(address)) {
      toast("Link copied.");
      return true;
    }
    showAlert(copyFailure(address, false, window.isSecureContext));
    return false;
  }
  try {
    await navigator.clipboard.writeText(address);
    toast("Link copied.");
    return true;
  } catch (e) {
    showAlert(copyFailure(address, true, true));
    return false;
  }
}

/** Copies `text` by selecting it in a text area of its own and asking the browser to copy the
 *  selection; the focus goes back where it was. Whether the browser copied it. */
function copySelected(text) {
  const was = document.activeElement, area = document.createElement("textarea");
  area.className = "copy-source";
  area.value = text;
  area.setAttribute("readonly", "");
  area.setAttribute("aria-hidden", "true");
  area.tabIndex = -1;
  document.body.append(area);
  area.select();
  let done = false;
  try {
    done = document.execCommand("copy");
  } catch (e) {
    done = false;
  }
  area.remove();
  if (was && was.focus) was.focus({ preventScroll: true });
  return done;
}
