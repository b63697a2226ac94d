// Controls that something is drawn over (the post form's sheet, a popup over the zoom buttons on a
// phone) leave the Tab order while covered: only what a person can see takes the focus. Each cover
// names itself, and the element is inert while any of them covers it (the sheet closing must not
// give back buttons that a popup still covers).

/** Records whether `by` ("post", "popup") covers `element` now; no element: nothing to do. */
export function cover(element, by, covered) {
  if (!element) return;
  const covers = element.covers || (element.covers = new Set());
  if (covered) covers.add(by);
  else covers.delete(by);
  // Written only when it changes: the popup asks at every frame of a pan.
  if (element.inert !== covers.size > 0) element.inert = covers.size > 0;
}
