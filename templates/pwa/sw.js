// The Gin Rummy service worker, served at /sw.js by ginsite/pwa.py so that its scope is the
// whole site.
//
// Hand-written rather than Workbox. It does three things: it keeps the site's own static files
// (whose URLs carry a hash of their content once collectstatic has run, so a stored copy is
// never stale and needs no revision bookkeeping), it answers a navigation that fails with the
// offline page in the reader's language, and it hands everything else to the network untouched.
// Workbox would bring its loader and four modules (vendored, since no CDN may serve it) and its
// own precache manifest format, for what is about a hundred lines here that a reader can check
// line by line against the one rule that matters: no page and no API answer is ever stored.
//
// Updates: a new deploy serves a different script (the version below is a digest of the asset
// list and of the offline pages), the browser installs it next to this one, and it waits until
// the reader presses "Reload" (static/js/pwa.js), which posts "skip-waiting".
"use strict";

var CONFIG = {{ config }};

var STATIC_CACHE = "gin-static-" + CONFIG.version;
// The language the site last answered this reader in (a navigation's Content-Language), for the
// offline page: a worker is stopped when idle, so it lives in a cache rather than a variable.
var META_CACHE = "gin-meta";
var LANGUAGE_KEY = "/offline/language";
var ASSETS = new Set(CONFIG.assets);
var OFFLINE_PAGES = new Set(Object.values(CONFIG.offline));
var knownLanguage = null;
// Bea offline (docs/offline.md): her pages are kept with the offline pages; Pyodide's files and
// the engine's code only once a player first plays her, in a cache that holds those and nothing
// else (so it is bounded by their size), named for Pyodide's version.
var BEA = CONFIG.offlineBea;
var BEA_FILES = new Set(BEA.files);
var BEA_PAGES = new Set(Object.values(BEA.pages));

self.addEventListener("install", function (event) {
  var urls = CONFIG.assets.concat(Object.values(CONFIG.offline), Object.values(BEA.pages));
  event.waitUntil(
    caches.open(STATIC_CACHE).then(function (cache) {
      // Past the HTTP cache, and without cookies: what is stored is what anyone would get.
      return cache.addAll(
        urls.map(function (url) {
          return new Request(url, { cache: "reload", credentials: "omit" });
        })
      );
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
              var old = name.indexOf("gin-static-") === 0 && name !== STATIC_CACHE;
              return old || (name.indexOf("gin-offline-bea-") === 0 && name !== BEA.cache);
            })
            .map(function (name) {
              return caches.delete(name);
            })
        );
      })
      .then(function () {
        // The first visit's page is served by this worker from now on, not only after a reload.
        return self.clients.claim();
      })
  );
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "skip-waiting") {
    self.skipWaiting();
  } else if (data.type === "version" && event.ports[0]) {
    event.ports[0].postMessage(CONFIG.version);
  }
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.mode === "navigate") {
    navigate(event);
    return;
  }
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (BEA_FILES.has(url.pathname)) {
    event.respondWith(keptForBea(request, url.pathname));
    return;
  }
  if (url.pathname === BEA.code) {
    event.respondWith(freshForBea(request, url.pathname));
    return;
  }
  if (!ASSETS.has(url.pathname + url.search)) return; // the network, and nothing stored
  event.respondWith(
    caches.match(request, { cacheName: STATIC_CACHE }).then(function (stored) {
      return stored || fetch(request);
    })
  );
});

// Pyodide's files never change under one name (the cache is named for its version): the
// stored copy, or the network's, stored.
function keptForBea(request, path) {
  return caches.open(BEA.cache).then(function (cache) {
    return cache.match(path).then(function (stored) {
      return stored || fetch(request).then(function (response) {
        // Stored before the page has it: what the page used is what is kept.
        if (!response.ok) return response;
        return cache.put(path, response.clone()).then(function () {
          return response;
        });
      });
    });
  });
}

// The engine's code changes with a deploy: the network's when it answers, else the stored one.
function freshForBea(request, path) {
  return caches.open(BEA.cache).then(function (cache) {
    return fetch(request).then(function (response) {
      if (!response.ok) return response;
      return cache.put(path, response.clone()).then(function () {
        return response;
      });
    }, function () {
      return cache.match(path).then(function (stored) {
        return stored || Response.error();
      });
    });
  });
}

// A page comes from the network, always; only when that fails does the offline page answer
// (or Bea offline's own page, kept, when that is the one asked for).
function navigate(event) {
  var answer = fetch(event.request);
  var path = new URL(event.request.url).pathname;
  event.respondWith(
    answer.catch(function () {
      if (!BEA_PAGES.has(path)) return offlinePage();
      return caches.match(path, { cacheName: STATIC_CACHE }).then(function (stored) {
        return stored || offlinePage();
      });
    })
  );
  event.waitUntil(
    answer.then(remember, function () {})
  );
}

function remember(response) {
  var path = new URL(response.url || self.location.href).pathname;
  var language = response.headers.get("Content-Language");
  if (!response.ok || OFFLINE_PAGES.has(path) || !(language in CONFIG.offline)) return;
  return readLanguage().then(function (stored) {
    if (stored === language) return;
    knownLanguage = language;
    return caches.open(META_CACHE).then(function (cache) {
      return cache.put(LANGUAGE_KEY, new Response(language));
    });
  });
}

function readLanguage() {
  if (knownLanguage) return Promise.resolve(knownLanguage);
  return caches.match(LANGUAGE_KEY, { cacheName: META_CACHE }).then(function (stored) {
    return stored ? stored.text() : null;
  }).then(function (language) {
    knownLanguage = language;
    return language;
  });
}

// The browser's own preference when the site has not answered this reader yet.
function browserLanguage() {
  var wanted = self.navigator.languages || [self.navigator.language || ""];
  for (var i = 0; i < wanted.length; i++) {
    var code = String(wanted[i]).toLowerCase().split("-")[0];
    if (code in CONFIG.offline) return code;
  }
  return CONFIG.defaultLanguage;
}

function offlinePage() {
  return readLanguage().then(function (language) {
    var page = CONFIG.offline[language in CONFIG.offline ? language : browserLanguage()];
    return caches.match(page, { cacheName: STATIC_CACHE });
  }).then(function (stored) {
    return stored || Response.error();
  });
}

// Web Push (lobby/webpush/delivery.py): a challenge or a rematch offer for a player with no page
// open. The payload is {title, body, url, tag}: names and rules, never a card.
self.addEventListener("push", function (event) {
  var data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    return;
  }
  if (!data.title) return;
  event.waitUntil(
    self.registration.showNotification(data.title, {
      body: data.body || "",
      tag: data.tag || undefined,
      data: { url: data.url || "/" },
      icon: CONFIG.icon || undefined,
    })
  );
});

// A tap opens the page the notice is about, in a window of the site already open if any.
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if ("navigate" in windows[i]) {
          return windows[i].focus().then(function (client) {
            return client.navigate(target.href);
          });
        }
      }
      return self.clients.openWindow(target.href);
    })
  );
});
