// Settings, "Notifications": turn Web Push on for this device (lobby/push/). The browser asks
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
    button.disabled = true;
    say("asking");
    Notification.requestPermission()
      .then(function (permission) {
        if (permission !== "granted") throw new Error("denied");
        return navigator.serviceWorker.ready;
      })
      .then(function (registration) {
        return registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(section.dataset.publicKey),
        });
      })
      .then(function (subscription) {
        var json = subscription.toJSON();
        return fetch(section.dataset.api, {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
          body: JSON.stringify({ endpoint: json.endpoint, keys: json.keys }),
        });
      })
      .then(function (response) {
        if (!response.ok) throw new Error("refused");
        window.location.reload();
      })
      .catch(function (error) {
        button.disabled = false;
        say(error && error.message === "denied" ? "denied" : "failed");
      });
  });
})();
