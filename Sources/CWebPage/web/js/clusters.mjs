// Which markers are drawn as one cluster at a zoom: pure work on points, no page, so node tests it
// (Tests/Browser/js/clusters.test.mjs) and the map (grouping.mjs) works it out in slices of idle time.
//
// A marker is any object with `at` ({x, y} in map units: 0…65535 across the world, Web Mercator)
// and `filtered` (true: a search left none of its students, so it is not grouped). Markers within
// `reach` pixels on screen of a cluster's first marker join it, as map sites do (Leaflet's
// markercluster): the first marker met that has no cluster within reach starts one.

/** Zoom levels an eighth of a doubling apart: markers are grouped once per level. `unit`: map units
 *  per screen pixel. */
export function zoomLevel(unit) {
  return Math.round(Math.log2(unit) * 8);
}

/** The grouping of `markers` at zoom level `level`, to be worked out by `advanceGrouping`. Markers
 *  go into square cells `far` map units on a side and look for a head in the 3×3 cells around theirs.
 *  A cell holds one head at most (a marker in a head's cell is within its reach), and its key is a
 *  small integer (x·K + y, under 2³⁰ on screens up to 6,800 pixels wide), so grouping ten thousand
 *  markers makes no garbage per marker. */
export function startGrouping(markers, level, reach) {
  const far = reach * Math.pow(2, level / 8);
  return { level, markers, far, K: Math.ceil(65535 / far) + 4, cells: new Map(), heads: [], k: 0, c: 0 };
}

/** Works on a grouping until it is done (true) or `until` (a clock reading, `now()`) has passed,
 *  to go on from there later (false). Each head is {at, members, order}; a group of two or more
 *  also gets its centre (`centre`), student count (`n`) and whether yours is in it (`mine`), from
 *  `countOf(marker)`. */
export function advanceGrouping(job, until, countOf, now = () => performance.now()) {
  const { far, K, cells, heads, markers } = job;
  for (; job.k < markers.length; job.k++) {
    if ((job.k & 255) === 255 && now() > until) return false;
    const m = markers[job.k];
    if (m.filtered) continue;
    // Its students counted here, a slice at a time (countOf keeps the count), for its group's count
    // below: counted there, the first grouping after login read ten thousand markers' students in one
    // go (a coarse level has a few heads, and the clock is read every 256 heads), a task of 100–350 ms.
    countOf(m);
    const cx = Math.floor(m.at.x / far) + 1, cy = Math.floor(m.at.y / far) + 1;
    let head = null;
    for (let i = -1; i <= 1; i++) {
      for (let j = -1; j <= 1; j++) {
        const h = cells.get((cx + i) * K + cy + j);
        if (h && Math.abs(h.at.x - m.at.x) <= far && Math.abs(h.at.y - m.at.y) <= far && (!head || h.order < head.order)) head = h;
      }
    }
    if (head) {
      head.members.push(m);
      continue;
    }
    head = { at: m.at, members: [m], order: heads.length, el: null };
    heads.push(head);
    cells.set(cx * K + cy, head);
  }
  for (; job.c < heads.length; job.c++) {
    if ((job.c & 255) === 255 && now() > until) return false;
    if (heads[job.c].members.length > 1) centreOf(heads[job.c], countOf);
  }
  return true;
}

/** A group's centre (the mean of its members' points), with its count and whether yours is in it:
 *  worked out once per grouping. */
export function centreOf(head, countOf) {
  if (head.centre) return head.centre;
  let x = 0, y = 0, n = 0, mine = false;
  for (const m of head.members) {
    x += m.at.x;
    y += m.at.y;
    n += countOf(m);
    mine = mine || m.mine;
  }
  head.n = n;
  head.mine = mine;
  head.centre = { x: x / head.members.length, y: y / head.members.length };
  return head.centre;
}

/** Groups `markers` at `level` at once: the heads. */
export function groupMarkers(markers, level, reach, countOf = () => 1) {
  const job = startGrouping(markers, level, reach);
  advanceGrouping(job, Infinity, countOf);
  return job.heads;
}
