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

/** Whether zooming in from `level` can split a group of `members` (markers, the first its head): not
 *  at the closest zoom's level `closest` or past it (nothing is closer; there clusters whose discs
 *  would overlap were merged too), nor when every member is within `reach` pixels of the first at
 *  that zoom (students a few kilometres apart are one cluster even there). */
export function zoomCanSplit(members, level, closest, reach) {
  if (level <= closest) return false;
  const far = reach * Math.pow(2, closest / 8), a = members[0].at;
  return members.some((m) => Math.abs(m.at.x - a.x) > far || Math.abs(m.at.y - a.y) > far);
}

/** The grouping of `markers` at zoom level `level`, to be worked out by `advanceGrouping`. Markers
 *  go into square cells `far` map units on a side and look for a head in the 3×3 cells around theirs.
 *  A cell holds one head at most (a marker in a head's cell is within its reach), and its key is a
 *  small integer (x·K + y, under 2³⁰ on screens up to 6,800 pixels wide), so grouping ten thousand
 *  markers makes no garbage per marker. */
export function startGrouping(markers, level, reach) {
  const far = reach * Math.pow(2, level / 8);
  // The most map units a pixel at this level (a zoom between two levels is drawn with the nearer):
  // discs kept apart at that are apart at every zoom drawn with the level's groups.
  const unit = Math.pow(2, (level + 0.5) / 8), span = 2 * (DISC_MAX + DISC_GAP) * unit;
  return {
    level, markers, far, K: Math.ceil(65535 / far) + 4, cells: new Map(), heads: [], k: 0, c: 0,
    unit, span, L: Math.ceil(65535 / span) + 4, placed: new Map(), p: 0, done: false,
  };
}

/** The pixels between two drawings side by side, at the least: their rings may touch. */
const DISC_GAP = 0;
/** A lone marker's radius in pixels (pins.mjs draws yours at 7, others at 5). */
const MARKER_RADIUS = 6;
/** The largest disc's radius in pixels, with most of its ring (`discRadius`). */
const DISC_MAX = 21;

/** A cluster's disc's radius in pixels for `n` students: it grows with the count's digits
 *  (markers.mjs draws it, with a ring of 3 pixels outside it, counted in `discRadius`). */
export function clusterRadius(n) {
  const digits = String(n).length;
  return digits < 2 ? 11 : digits < 3 ? 13 : digits < 4 ? 16 : 19;
}

/** How far from its point a group's drawing reaches, in pixels: a cluster's disc and most of its
 *  ring (3 pixels wide: two rings may cross a pixel), or a lone marker. */
function discRadius(head) {
  return head.members.length > 1 ? clusterRadius(head.n) + 2 : MARKER_RADIUS;
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
  // Groups whose drawings would overlap on screen are one: a cluster's centre moves towards its
  // members, and a neighbour's disc hid its count (ten thousand students on the world's view).
  for (; job.p < heads.length; job.p++) {
    if ((job.p & 255) === 255 && now() > until) return false;
    place(job, heads[job.p], countOf);
  }
  if (!job.done) {
    job.done = true;
    job.heads = heads.filter((h) => !h.merged);
  }
  return true;
}

/** Places a group among those placed before it, in square cells `span` map units on a side (two of
 *  the largest discs): one whose drawing would overlap a placed one's takes it in, and is placed
 *  again, until it overlaps none. So no two placed groups overlap, whatever the order. */
function place(job, head, countOf) {
  for (;;) {
    const p = groupPoint(head, countOf), r = discRadius(head);
    const cx = Math.floor(p.x / job.span) + 1, cy = Math.floor(p.y / job.span) + 1;
    let other = null;
    for (let i = -1; i <= 1 && !other; i++) {
      for (let j = -1; j <= 1 && !other; j++) {
        const cell = job.placed.get((cx + i) * job.L + cy + j);
        if (!cell) continue;
        for (const h of cell) {
          const q = groupPoint(h, countOf), apart = (r + discRadius(h) + DISC_GAP) * job.unit;
          if ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y) < apart * apart) {
            other = h;
            break;
          }
        }
      }
    }
    if (!other) {
      const key = cx * job.L + cy, cell = job.placed.get(key);
      if (cell) cell.push(head);
      else job.placed.set(key, [head]);
      head.cell = key;
      return;
    }
    const cell = job.placed.get(other.cell);
    cell.splice(cell.indexOf(other), 1);
    head = merge(other, head, countOf);
  }
}

/** Whether yours is in a group. */
function mineIn(head) {
  return head.members.length > 1 ? !!head.mine : !!head.members[0].mine;
}

/** A group's point: a cluster's centre, a lone marker's own. */
function groupPoint(head, countOf) {
  return head.members.length > 1 ? centreOf(head, countOf) : head.at;
}

/** Two groups as one: the one with more students (the first, of as many) takes the other's members;
 *  its centre is the mean of all their points, as `centreOf` has it. */
function merge(a, b, countOf) {
  const na = a.members.length > 1 ? a.n : countOf(a.members[0]), nb = b.members.length > 1 ? b.n : countOf(b.members[0]);
  const [keep, gone] = nb > na ? [b, a] : [a, b];
  const pk = groupPoint(keep, countOf), pg = groupPoint(gone, countOf), k = keep.members.length, g = gone.members.length;
  keep.centre = { x: (pk.x * k + pg.x * g) / (k + g), y: (pk.y * k + pg.y * g) / (k + g) };
  keep.n = na + nb;
  keep.mine = mineIn(keep) || mineIn(gone);
  for (const m of gone.members) keep.members.push(m);
  gone.merged = true;
  gone.members = [];
  return keep;
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
