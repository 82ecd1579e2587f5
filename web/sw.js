// SPDX-License-Identifier: MIT
// The page offline after a reload: this service worker keeps a copy of every file the page loads
// (its own, the bundle of the firmware, the MicroPython build) and answers from it when the
// server does not. While the server answers, its files win and the copy follows them, so a
// `make web` after a change is seen at the next reload. Nothing but the page's own GETs is
// touched (POST /annotate goes to the server, or says there is none).
const CACHE = "tournament-clock";
const ENGINE = "node_modules/@micropython/micropython-webassembly-pyscript/";
const FILES = [
  "./",
  "index.html",
  "style.css",
  "page.js",
  "clock.js",
  "display.js",
  "manager.js",
  "record.js",
  "serial.js",
  "shared.js",
  "build/bundle.json",
  ENGINE + "micropython.mjs",
  ENGINE + "micropython.wasm",
];
const WAIT_MS = 4000; // a server that does not answer in this long is taken as gone

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(fromServerElseCopy(request));
});

async function fromServerElseCopy(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await Promise.race([
      fetch(request),
      new Promise((_, reject) => setTimeout(() => reject(new Error("no answer")), WAIT_MS)),
    ]);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const copy = await cache.match(request, { ignoreSearch: true });
    if (copy) return copy;
    throw error;
  }
}
