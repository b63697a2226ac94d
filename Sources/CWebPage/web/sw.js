// The page's service worker: the page installed to a phone's home screen opens without a network,
// showing the last map seen (docs/DEPLOY.md, "The web page"). Served by the server at the page's
// root (its scope), filled in with this version's files (WebAssets): {{assets}} and {{files}}.
//
// It keeps: the page and its files (this version's; an older version's are deleted once this one
// runs), and the last answer of each page of the newest pins (GET v1/StudentLocation, the list the map
// shows; deleted at Log out, when the page asks, session.mjs: a page still arriving then is not kept).
// It answers from what it kept only when the server cannot be reached, marking such an answer
// `X-OnTheMap-Offline: <when it was kept>` so the page says since when it is offline. It never keeps
// the session, a user, a place lookup, a pin's owner's query, or any write.

"use strict";

const VERSION = "{{assets}}";
// A string until filled in, so this file is JavaScript as it stands too (node --check reads it).
const FILES = JSON.parse('{{files}}');
const PAGE = "onthemap-page-" + VERSION;
const LISTS = "onthemap-lists";

/** How many times the page asked to forget the lists (Log out). A list whose fetch began before the
 *  last time is not kept: its answer, arriving after the delete, would put the last person's list back. */
let forgotten = 0;

self.addEventListener("message", (event) => {
  if (!event.data || event.data.forget !== "lists") return;
  forgotten++;
  const reply = event.ports[0];
  event.waitUntil(caches.delete(LISTS).catch(() => false).then(() => {
    if (reply) reply.postMessage("forgotten");
  }));
});

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(PAGE);
    await cache.addAll(["./"].concat(FILES.map((name) => VERSION + "/" + name)));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("onthemap-page-") && name !== PAGE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

/** The newest pins a page of the map shows: kept. A pin's owner's query (uniqueKey=…) is not. */
function isList(url) {
  return /\/v1\/StudentLocation$/.test(url.pathname) && url.searchParams.has("order") && !url.searchParams.has("uniqueKey");
}

self.addEventListener("fetch", (event) => {
  const request = event.request, url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const scope = new URL(self.registration.scope);
  if (request.mode === "navigate" && (url.pathname === scope.pathname || url.pathname === scope.pathname + "index.html")) {
    event.respondWith(networkFirst(event, PAGE, "./"));
  } else if (url.pathname.startsWith(scope.pathname + VERSION + "/")) {
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)));
  } else if (isList(url) && !request.headers.has("If-None-Match") && !request.headers.has("X-OnTheMap-Session")) {
    event.respondWith(networkFirst(event, LISTS, null));
  }
});

/** The server's answer, kept (a 200) while the page already reads it; without one, the answer kept
 *  last, marked as such. */
async function networkFirst(event, cacheName, key) {
  const request = event.request, asked = forgotten;
  try {
    const answer = await fetch(request);
    if (answer.status === 200) event.waitUntil(keep(cacheName, key || request, answer.clone(), asked));
    return answer;
  } catch (error) {
    const cache = await caches.open(cacheName);
    const kept = await cache.match(key || request, { ignoreVary: true, ignoreSearch: false });
    if (!kept) throw error;
    const headers = new Headers(kept.headers);
    headers.set("X-OnTheMap-Offline", headers.get("X-OnTheMap-Kept") || new Date().toISOString());
    return new Response(await kept.blob(), { status: 200, headers });
  }
}

/** Keeps `answer` once its whole body has come, unless the lists were forgotten since its fetch
 *  began (`asked`, the count then). The check follows the wait for the body: a delete asked after
 *  it is asked after this `caches.open`, so it deletes what this puts too. */
async function keep(cacheName, key, answer, asked) {
  const headers = new Headers(answer.headers);
  headers.set("X-OnTheMap-Kept", new Date().toISOString());
  const body = await answer.blob();
  if (cacheName === LISTS && forgotten !== asked) return;
  const cache = await caches.open(cacheName);
  await cache.put(key, new Response(body, { status: 200, headers }));
}
