// The installable app, on every page: registers the service worker (ginsite/pwa.py serves it
// at /sw.js), shows the install button where the browser offers an install
// (beforeinstallprompt; the button stays hidden everywhere else), and shows "Update ready"
// when a new worker waits, rather than letting pages run on with old scripts.
(function () {
  "use strict";

  var script = document.currentScript;
  var install = document.getElementById("install-app");
  var offered = null;

  window.addEventListener("beforeinstallprompt", function (event) {
    // Our own button, in the footer, instead of the browser's banner over the table.
    event.preventDefault();
    offered = event;
    if (install) install.hidden = false;
  });
  window.addEventListener("appinstalled", function () {
    offered = null;
    if (install) install.hidden = true;
  });
  document.addEventListener("click", function (event) {
    if (!event.target.closest("[data-install-app]") || !offered) return;
    var prompt = offered;
    offered = null; // a prompt can be shown once
    prompt.prompt();
    prompt.userChoice.then(function () {
      if (install) install.hidden = true;
    });
  });

  if (!("serviceWorker" in navigator) || !script || !script.dataset.worker) return;

  var update = document.getElementById("update-ready");
  var waiting = null;
  var asked = false;
  var lastCheck = Date.now();
  // A table page stays open for a whole match without navigating, so look again when the
  // reader comes back to it, at most every half hour.
  var CHECK_EVERY_MS = 30 * 60 * 1000;

  function offer(worker) {
    waiting = worker;
    if (update) update.hidden = false;
  }

  // Only an update waits behind a worker that controls this page; a first install does not.
  function track(worker) {
    if (!worker) return;
    worker.addEventListener("statechange", function () {
      if (worker.state === "installed" && navigator.serviceWorker.controller) offer(worker);
    });
  }

  function watch(registration) {
    if (registration.waiting && navigator.serviceWorker.controller) offer(registration.waiting);
    // The browser may have found the update (at this page's navigation) before this ran.
    track(registration.installing);
    registration.addEventListener("updatefound", function () {
      track(registration.installing);
    });
    document.addEventListener("visibilitychange", function () {
      if (document.hidden || Date.now() - lastCheck < CHECK_EVERY_MS) return;
      lastCheck = Date.now();
      registration.update().catch(function () {});
    });
  }

  // Reload once, when the worker the reader asked for has taken over this page.
  navigator.serviceWorker.addEventListener("controllerchange", function () {
    if (!asked) return;
    asked = false;
    window.location.reload();
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-update-app]");
    if (!button || !waiting) return;
    asked = true;
    button.disabled = true;
    waiting.postMessage({ type: "skip-waiting" });
  });

  function register() {
    navigator.serviceWorker
      .register(script.dataset.worker, { scope: "/" })
      .then(watch)
      .catch(function () {
        // No worker (a private window that refuses it, storage full): the site works as a page.
      });
  }

  // After the page has loaded: a first visit's worker fetches every static file it keeps, and
  // those fetches should not compete with the page's own.
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
})();
