// cardwar's service worker (rendered by cardwar/web/pwa.py; scope "/").
// It keeps the site's static assets (versioned URLs: a new release is a new
// cache), the offline page and the web app manifest of each language (an
// app opened offline keeps its name and icons; the manifest comes from the
// network when it can, the kept copy only when it cannot). Pages, game state, the API
// and WebSockets always go to the network and are never kept.
"use strict";

const CACHE = "cardwar-{{ version }}";
const ASSETS = {{ assets|tojson }};
const OFFLINE = {{ offline|tojson }};
const MANIFESTS = {{ manifests|tojson }};
const BY_LANGUAGE = {{ by_language|tojson }};
const DEFAULT = {{ default|tojson }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll([...ASSETS, ...Object.values(OFFLINE), ...MANIFESTS]))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("cardwar-") && k !== CACHE)
      .map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

/** The offline page for a page at `path`: in its language, else the browser's. */
function offlinePage(path) {
  const first = path.split("/")[1];
  if (OFFLINE[first]) return OFFLINE[first];
  const browser = (self.navigator.language || "").split("-")[0].toLowerCase();
  return BY_LANGUAGE[browser] || OFFLINE[DEFAULT];
}

/** A versioned static asset: the same URL never changes, so it may be kept. */
function versioned(url) {
  return url.pathname.startsWith("/static/v/") ||
    (url.pathname.startsWith("/static/") && url.searchParams.has("v"));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // always the network; the offline page only when it cannot be reached
    event.respondWith(fetch(request).catch(() =>
      caches.match(offlinePage(url.pathname)).then((page) => page || Response.error())));
    return;
  }
  if (MANIFESTS.includes(url.pathname) && !url.search) {
    event.respondWith(fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(url.pathname, copy));
      }
      return response;
    }).catch(() => caches.match(url.pathname).then((kept) => kept || Response.error())));
    return;
  }
  if (!versioned(url)) return;  // game state, API, QR codes...: the network, untouched
  event.respondWith(caches.open(CACHE).then((cache) => cache.match(request).then((hit) => {
    if (hit) return hit;
    return fetch(request).then((response) => {
      if (response.ok) cache.put(request, response.clone());
      return response;
    });
  })));
});
