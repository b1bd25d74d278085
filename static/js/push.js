// Settings, "Notifications": turn Web Push on for this device (lobby/webpush/). The browser asks
// the player, subscribes with the site's VAPID public key, and the subscription is registered
// through the API (/api/v1/me/push-subscriptions); the page then reloads to list the device.
(function () {
  "use strict";
  var section = document.getElementById("notifications");
  var button = section && section.querySelector("[data-push-on]");
  var note = section && section.querySelector("[data-push-note]");
  if (!button || !section.dataset.publicKey) return;

  function say(key) { note.textContent = section.dataset[key] || ""; }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("unsupported");
    return;
  }

  function keyBytes(text) {
    var b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
    var raw = atob(b64);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function listed(endpoint) {
    return Array.prototype.some.call(section.querySelectorAll("[data-endpoint]"), function (li) {
      return li.dataset.endpoint === endpoint;
    });
  }

  function csrf() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  button.hidden = false;
  navigator.serviceWorker.ready
    .then(function (registration) { return registration.pushManager.getSubscription(); })
    .then(function (subscription) {
      if (subscription && listed(subscription.endpoint) && Notification.permission === "granted") {
        button.hidden = true;
        say("onHere");
      }
    });

  button.addEventListener("click", function () {
    // Which step failed decides what the player is told: each has its own reason and remedy.
    var stage = "permission";
    button.disabled = true;
    say("asking");
    Notification.requestPermission()
      .then(function (permission) {
        if (permission !== "granted") throw new Error("denied");
        return navigator.serviceWorker.ready;
      })
      .then(function (registration) {
        stage = "subscribe";
        return registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(section.dataset.publicKey),
        });
      })
      .then(function (subscription) {
        var json = subscription.toJSON();
        stage = "register";
        return fetch(section.dataset.api, {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
          body: JSON.stringify({ endpoint: json.endpoint, keys: json.keys }),
        });
      })
      .then(function (response) {
        if (response.ok) return window.location.reload();
        // The server says why it refused (in the page's language): show that.
        return response.json().then(
          function (body) { throw new Error((body && body.message) || "refused"); },
          function () { throw new Error("refused"); }
        );
      })
      .catch(function (error) {
        button.disabled = false;
        if (error && error.message === "denied") say("denied");
        // The browser has no push service to reach: a private window, a browser with push
        // turned off, or one that cannot reach its vendor's service from here.
        else if (stage === "subscribe") say("noService");
        else if (stage === "register" && error instanceof TypeError) say("offline");
        else if (stage === "register" && error && error.message && error.message !== "refused") {
          note.textContent = error.message;
        } else say("failed");
      });
  });
})();
