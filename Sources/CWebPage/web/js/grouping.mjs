// The map's clusters per zoom level, kept and worked out ahead. Markers are grouped once per zoom
// level (clusters.mjs: an eighth of a doubling) and the groups of 24 levels kept; the levels a zoom is
// about to reach are grouped ahead in idle time, a few milliseconds at a time, so that redrawing the
// markers in the middle of a gesture finds its level kept (grouping ten thousand markers anew took up
// to 30 ms, which made that frame miss two or three of the screen's). `foreseenLevels` is pure: node
// tests it (Tests/Browser/js/grouping.test.mjs).

import { between } from "./camera.mjs";
import { advanceGrouping, startGrouping, zoomLevel } from "./clusters.mjs";

/** The zoom levels a zoom from `unit` (map units per pixel) is about to need, each once: where the
 *  gesture under way (`trend`, how much the last step scaled the view; else a wheel's notch) will
 *  next redraw, a doubling or halving on, going on or turning back, and the one after; the levels
 *  beside those; and the keys' and a double-click's zoom. `range`: the units per pixel allowed. */
export function foreseenLevels(unit, trend, range) {
  const f = Math.abs(Math.log(trend || 1)) > 0.01 ? trend : 1.25, want = [];
  function next(v, g) {
    let w = v;
    for (let i = 0; i < 64 && w >= v / 2 && w <= v * 2 && w >= range[0] && w <= range[1]; i++) w /= g;
    return between(w, range[0], range[1]);
  }
  const on = next(unit, f), back = next(unit, 1 / f);
  want.push(zoomLevel(on), zoomLevel(back), zoomLevel(next(on, f)), zoomLevel(on) - 1, zoomLevel(on) + 1,
    zoomLevel(back) - 1, zoomLevel(back) + 1, zoomLevel(unit / 1.5), zoomLevel(unit * 1.5), zoomLevel(unit / 2));
  return want.filter((level, i) => want.indexOf(level) === i);
}

/** The groupings of a set of markers, kept per level. `reach`: pixels (clusters.mjs); `countOf(marker)`:
 *  its students; `counts` ({ahead, found, late}): how each grouping a drawing asked for was had, for
 *  tests: worked out in idle time, found kept, or worked out then, the drawing waiting. `level`: the
 *  level drawn, null when the markers are to be grouped again. */
export function groupingStore(reach, countOf, counts) {
  const levels = new Map();
  // `generation`: how many times the markers were given, so a drawing put off is dropped for newer ones.
  let markers = [], ahead = null, queue = [], idling = false, renewing = null, generation = 0;
  const store = { level: null, reset, renew, at, foresee };

  /** New markers, or a search that changed what they show: every grouping kept is forgotten. */
  function reset(list) {
    generation++;
    markers = list;
    store.level = null;
    levels.clear();
    ahead = null;
    queue = [];
    renewing = null;
  }
  /** New markers, a few of them changed, while the groups of the level drawn stay drawn: that level is
   *  worked out again in idle time, a few milliseconds at a time, and `ready()` called once it is
   *  kept (ten thousand markers grouped at once were a task a person feels when one pin moved). */
  function renew(list, ready) {
    const level = store.level;
    reset(list);
    store.level = level;
    renewing = { job: startGrouping(list, level, reach), ready };
    if (!idling) {
      idling = true;
      whenIdle(work);
    }
  }
  /** The groups at `level` (clusters.mjs's heads), now the level drawn: kept, or worked out now. */
  function at(level) {
    store.level = level;
    let heads = levels.get(level);
    if (heads) counts.found++;
    else {
      const job = renewing && renewing.job.level === level ? renewing.job : ahead && ahead.level === level ? ahead : startGrouping(markers, level, reach);
      if (job === ahead) ahead = null;
      if (renewing && job === renewing.job) renewing = null;
      advanceGrouping(job, Infinity, countOf);
      heads = keep(job);
      counts.late++;
    }
    return heads;
  }
  /** Keeps a level's groups; past 24 levels, drops the one farthest from the level drawn (a zoom goes
   *  through the levels one after the other: the far ones are needed last). */
  function keep(job) {
    levels.set(job.level, job.heads);
    if (levels.size > 24) {
      let far = null;
      levels.forEach((_, level) => {
        if (far === null || Math.abs(level - store.level) > Math.abs(far - store.level)) far = level;
      });
      levels.delete(far);
    }
    return job.heads;
  }
  /** Works out in idle time the levels a zoom from `unit` is about to need (`foreseenLevels`). */
  function foresee(unit, trend, range) {
    queue = foreseenLevels(unit, trend, range).filter((level) => !levels.has(level));
    if (ahead && queue.indexOf(ahead.level) < 0) ahead = null;
    if (queue.length && !idling) {
      idling = true;
      whenIdle(work);
    }
  }
  /* A few milliseconds at a time, so that a frame or an event never waits long for it. */
  function work(deadline) {
    idling = false;
    const until = performance.now() + Math.min(deadline ? deadline.timeRemaining() : 4, 8);
    if (renewing) {
      const r = renewing;
      if (!advanceGrouping(r.job, until, countOf)) {
        idling = true;
        whenIdle(work);
        return;
      }
      renewing = null;
      keep(r.job);
      // The groups drawn in a task of their own once this slice has had its time: at login, the
      // grouping's last slice and the first drawing of its groups were one task of 40–60 ms.
      if (performance.now() < until) r.ready();
      else {
        const kept = generation;
        whenIdle(() => { if (kept === generation) r.ready(); });
      }
    }
    while (ahead || queue.length) {
      if (!ahead) {
        const level = queue.shift();
        if (levels.has(level)) continue;
        ahead = startGrouping(markers, level, reach);
      }
      if (!advanceGrouping(ahead, until, countOf)) break;
      keep(ahead);
      ahead = null;
      counts.ahead++;
    }
    if (ahead || queue.length) {
      idling = true;
      whenIdle(work);
    }
  }
  return store;
}

/** Calls `f` in the page's idle time, with its deadline (or soon, where there is none). */
export function whenIdle(f) {
  if (window.requestIdleCallback) requestIdleCallback(f);
  else setTimeout(f, 20);
}
