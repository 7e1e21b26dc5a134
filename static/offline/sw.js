/* Sổ Tôm service worker. Served at /sw.js by scoring.offline.views.service_worker, which puts
 * `const SOTOM = {version, shell, offline, manifest}` above this code.
 *
 * - The app shell (htmx, CSS, the offline scripts, icons) is cached at install, served cache-first.
 * - Scorekeeper pages (/so-diem/…) are network-first with a short timeout, kept in a cache, and
 *   served from it when the network is gone: a sitting opened once while online opens offline.
 * - A sitting's offline pack (/so-diem/<pk>/ngoai-tuyen.json) is network-first too.
 * - The scripts' text in each language (Django's JavaScript catalog, SOTOM.catalogs) is kept at
 *   install and served from the cache at once, refreshed in the background.
 * - Writes (POST), the JSON API and htmx partials are never cached: the page's outbox sends
 *   queued ván itself, through the API, in order.
 */
/* global SOTOM */
"use strict";

const SHELL_CACHE = "sotom-shell-" + SOTOM.version;
const PAGE_CACHE = "sotom-pages";
const DATA_CACHE = "sotom-data";
const NETWORK_TIMEOUT_MS = 4000;
const PAGE_PATH = /^(\/[a-z]{2})?\/(so-diem\/|ngoai-tuyen\/)/;
const PACK_PATH = /\/so-diem\/\d+\/ngoai-tuyen\.json$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL_CACHE)
      .then((cache) => cache.addAll([...SOTOM.shell, SOTOM.offline, SOTOM.manifest]))
      .then(() => caches.open(DATA_CACHE))
      .then((cache) => cache.addAll(SOTOM.catalogs).catch(() => null)) // the text falls back to Vietnamese
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((n) => n.startsWith("sotom-shell-") && n !== SHELL_CACHE).map((n) => caches.delete(n))
      ))
      .then(() => self.clients.claim())
  );
});

function isStatic(url) {
  return url.pathname.includes("/static/");
}

async function cacheFirst(request) {
  const cached = await caches.match(request, { ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(SHELL_CACHE);
    cache.put(request, response.clone());
  }
  return response;
}

/* The cached copy at once (the network refreshes it for next time); the network when there is none. */
async function staleWhileRevalidate(request, cacheName) {
  const cache = await caches.open(cacheName);
  const cached = await cache.match(request, { ignoreVary: true, ignoreSearch: true });
  const fromNetwork = fetch(request).then((response) => {
    if (response.ok) cache.put(request, response.clone());
    return response;
  });
  fromNetwork.catch(() => null);
  return cached || fromNetwork;
}

/* Network first; after NETWORK_TIMEOUT_MS (a "lie-fi" connection) or on failure, the cached copy. */
async function networkFirst(request, cacheName, fallbackUrl) {
  const cache = await caches.open(cacheName);
  const fromNetwork = fetch(request).then((response) => {
    if (response.ok && response.type === "basic" && !response.redirected) {
      cache.put(request, response.clone());
    }
    return response;
  });
  fromNetwork.catch(() => null); // a late failure after the cached copy was served is not an error
  const cached = () => cache.match(request, { ignoreVary: true, ignoreSearch: true });
  try {
    const timeout = new Promise((resolve) => setTimeout(() => resolve(null), NETWORK_TIMEOUT_MS));
    const first = await Promise.race([fromNetwork, timeout]);
    if (first) return first;
    const copy = await cached();
    return copy || (await fromNetwork);
  } catch (error) {
    const copy = await cached();
    if (copy) return copy;
    if (fallbackUrl) {
      const fallback = await caches.match(fallbackUrl, { ignoreVary: true });
      if (fallback) return fallback;
    }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || request.headers.get("HX-Request")) return;
  if (isStatic(url) || url.pathname === SOTOM.manifest) {
    event.respondWith(cacheFirst(request));
  } else if (SOTOM.catalogs.includes(url.pathname)) {
    event.respondWith(staleWhileRevalidate(request, DATA_CACHE));
  } else if (PACK_PATH.test(url.pathname)) {
    event.respondWith(networkFirst(request, DATA_CACHE, null));
  } else if (request.mode === "navigate") {
    const keep = PAGE_PATH.test(url.pathname);
    event.respondWith(
      keep ? networkFirst(request, PAGE_CACHE, SOTOM.offline)
        : fetch(request).catch(() => caches.match(SOTOM.offline, { ignoreVary: true }))
    );
  }
});

/* The page asks to keep a copy of itself (a sitting page loaded before this worker controlled it,
 * or its state after an online save), so that it reopens offline as last seen. */
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "keep" || !data.url) return;
  const url = new URL(data.url, self.location.origin);
  if (url.origin !== self.location.origin || !PAGE_PATH.test(url.pathname)) return;
  event.waitUntil(
    fetch(url.href, { credentials: "same-origin" })
      .then(async (response) => {
        if (response.ok && !response.redirected) {
          const cache = await caches.open(PAGE_CACHE);
          await cache.put(url.pathname, response);
        }
        if (event.source) event.source.postMessage({ type: "kept", url: url.pathname, ok: response.ok });
      })
      .catch(() => event.source && event.source.postMessage({ type: "kept", url: url.pathname, ok: false }))
  );
});
