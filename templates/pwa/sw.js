// The service worker, served at /sw.js by companion/pwa/routes.py, which fills in the cache
// version and the list of files to keep (every static file, the offline page and the manifest).
// Static files are listed under their fingerprinted names (/static/style.3f2a91c0.css), the
// names the pages link: a name changes with the file's content, so a kept copy is never stale.
//
// - Static files: from the cache first, from the network when missing.
// - The manifest: from the network (it speaks the visitor's language), else from the cache.
// - Pages: always from the network (games are live and may be private, so no page is ever
//   stored); when the network fails, the offline page is shown instead.
// - Anything else (other sites, the JSON API, any method but GET) is left to the browser.
(function () {
  "use strict";

  var CACHE_PREFIX = "sticheln-";
  var CACHE = CACHE_PREFIX + {{ version|tojson }};
  var OFFLINE_URL = {{ offline_url|tojson }};
  var MANIFEST_URL = {{ manifest_url|tojson }};
  var STATIC_PREFIX = {{ static_prefix|tojson }};
  var API_PREFIX = {{ api_prefix|tojson }};
  var PRECACHE = {{ precache|tojson }};

  // The server says every response varies with the language and cookie; a cached static file
  // or offline page is right for any request all the same, so cache look-ups ignore Vary.
  var MATCH = { ignoreVary: true };

  self.addEventListener("install", function (event) {
    event.waitUntil(
      caches
        .open(CACHE)
        .then(function (cache) {
          // "reload" skips the browser's HTTP cache, so the files are those of this version.
          return cache.addAll(
            PRECACHE.map(function (url) {
              return new Request(url, { cache: "reload" });
            })
          );
        })
        .then(function () {
          return self.skipWaiting();
        })
    );
  });

  self.addEventListener("activate", function (event) {
    event.waitUntil(
      caches
        .keys()
        .then(function (names) {
          return Promise.all(
            names
              .filter(function (name) {
                return name.indexOf(CACHE_PREFIX) === 0 && name !== CACHE;
              })
              .map(function (name) {
                return caches.delete(name);
              })
          );
        })
        .then(function () {
          // Start fetching a page while the worker wakes up, where the browser can.
          if (self.registration.navigationPreload) {
            return self.registration.navigationPreload.enable();
          }
        })
        .then(function () {
          return self.clients.claim();
        })
    );
  });

  // The kept copy of one of this worker's own URLs.
  function cached(url) {
    return caches.open(CACHE).then(function (cache) {
      return cache.match(url, MATCH).then(function (response) {
        return response || Response.error();
      });
    });
  }

  // A page from the network, never kept; the offline page when the network fails.
  function page(event) {
    return Promise.resolve(event.preloadResponse)
      .then(function (preloaded) {
        return preloaded || fetch(event.request);
      })
      .catch(function () {
        return cached(OFFLINE_URL);
      });
  }

  // A static file from the cache, from the network if it is not there.
  function staticFile(request) {
    return caches.open(CACHE).then(function (cache) {
      return cache.match(request, MATCH).then(function (response) {
        return response || fetch(request);
      });
    });
  }

  self.addEventListener("fetch", function (event) {
    var request = event.request;
    if (request.method !== "GET") {
      return;
    }
    var url = new URL(request.url);
    if (url.origin !== self.location.origin || url.pathname.indexOf(API_PREFIX) === 0) {
      return;
    }
    if (request.mode === "navigate") {
      event.respondWith(page(event));
    } else if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
      event.respondWith(staticFile(request));
    } else if (url.pathname === MANIFEST_URL) {
      event.respondWith(
        fetch(request).catch(function () {
          return cached(MANIFEST_URL);
        })
      );
    }
  });
})();
