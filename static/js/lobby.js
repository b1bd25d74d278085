// The lobby's small client side. The server renders everything and pushes regions over the
// websocket (htmx ws extension); this file only does what HTML cannot:
//  - follow a pushed #lobby-redirect[data-redirect] (a match was just started for me),
//  - beep when a new challenge to me arrives, if I switched the sound on (kept in localStorage),
//  - keep the rules a player picked in a form when a push re-renders the region around it,
//  - say so when a request fails or the connection drops.
(function () {
  "use strict";

  // Picked rules by select id ("to-bob-preset", "seek-target"...), restored after each swap.
  var picked = {};

  function rememberPick(event) {
    var el = event.target;
    if (el.matches && el.matches("#lobby select[id]")) picked[el.id] = el.value;
  }

  function restorePicks() {
    Object.keys(picked).forEach(function (id) {
      var el = document.getElementById(id);
      if (el && el.value !== picked[id]) el.value = picked[id];
    });
  }

  var SOUND_KEY = "lobby.sound";
  var seenChallenges = null; // ids of incoming challenges already on the page
  var audio = null;

  function soundOn() {
    try {
      return window.localStorage.getItem(SOUND_KEY) === "on";
    } catch (e) {
      return false;
    }
  }

  function audioContext() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    if (!audio) audio = new Ctx();
    // Browsers start audio suspended until a user gesture; the toggle click is one.
    if (audio.state === "suspended") audio.resume();
    return audio;
  }

  function beep() {
    var ctx = audioContext();
    if (!ctx) return;
    // Two short rising tones: noticeable, not alarming. No audio file, nothing fetched.
    [0, 0.16].forEach(function (offset, i) {
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = i === 0 ? 660 : 880;
      var start = ctx.currentTime + offset;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.14);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start);
      osc.stop(start + 0.15);
    });
  }

  function incomingIds() {
    var ids = {};
    document.querySelectorAll("#lobby-challenges [data-incoming]").forEach(function (el) {
      ids[el.getAttribute("data-incoming")] = true;
    });
    return ids;
  }

  function checkChallenges() {
    var now = incomingIds();
    if (seenChallenges !== null) {
      var fresh = Object.keys(now).some(function (id) {
        return !seenChallenges[id];
      });
      if (fresh && soundOn()) beep();
    }
    seenChallenges = now;
  }

  // Accepting sends the accepter's page on twice, by the socket's pushed redirect and the
  // answer's HX-Redirect: leave-once.js follows whichever comes first.

  function followRedirect() {
    var target = document.querySelector("#lobby-redirect[data-redirect]");
    if (!target) return;
    window.ginLeave(target.getAttribute("data-redirect"));
  }

  function notice(message) {
    var box = document.getElementById("lobby-notice");
    if (!box) return;
    box.className = "notice error";
    box.innerHTML = "";
    var p = document.createElement("p");
    p.textContent = message;
    box.appendChild(p);
  }

  function lobbyData(name, fallback) {
    var lobby = document.getElementById("lobby");
    return (lobby && lobby.dataset[name]) || fallback;
  }

  function setUpSoundToggle() {
    var box = document.getElementById("lobby-sound");
    if (!box) return;
    box.closest("label").hidden = false;
    box.checked = soundOn();
    box.addEventListener("change", function () {
      try {
        window.localStorage.setItem(SOUND_KEY, box.checked ? "on" : "off");
      } catch (e) {
        /* private mode: the toggle just lasts for this page */
      }
      if (box.checked) beep(); // a sample, and the gesture that unlocks audio
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!document.getElementById("lobby")) return;
    setUpSoundToggle();
    checkChallenges();
  });
  document.addEventListener("change", rememberPick);
  document.addEventListener("htmx:wsAfterMessage", function () {
    followRedirect();
    restorePicks();
    checkChallenges();
  });
  document.addEventListener("htmx:afterSettle", function () {
    restorePicks();
    checkChallenges();
  });
  document.addEventListener("htmx:oobAfterSwap", restorePicks);
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    notice(lobbyData("failed", "The server refused that ({status}).").replace("{status}", status));
  });
  document.addEventListener("htmx:sendError", function () {
    notice(lobbyData("offline", "No connection to the server."));
  });
  document.addEventListener("htmx:wsClose", function () {
    notice(lobbyData("offline", "No connection to the server."));
  });
  document.addEventListener("htmx:wsOpen", function () {
    var box = document.getElementById("lobby-notice");
    // The connection is back; the server's catch-up push brings the regions up to date.
    if (box && box.classList.contains("error")) box.innerHTML = "";
  });
  // A challenge's "Expires in N seconds" counts down on the page; the server still decides.
  function tickExpiries() {
    var spans = document.querySelectorAll(".expires[data-expires]");
    for (var i = 0; i < spans.length; i++) {
      var left = Math.max(0, Math.round((Date.parse(spans[i].dataset.expires) - Date.now()) / 1000));
      var text = left === 0 ? spans[i].dataset.gone : left === 1 ? spans[i].dataset.one : spans[i].dataset.many.replace("{n}", left);
      if (spans[i].textContent !== text) spans[i].textContent = text;
    }
  }
  // How long this player has waited in the pool ("Play now") counts up the same way.
  function tickWaited() {
    var spans = document.querySelectorAll(".waited[data-since]");
    for (var i = 0; i < spans.length; i++) {
      var n = Math.max(0, Math.round((Date.now() - Date.parse(spans[i].dataset.since)) / 1000));
      var text = n === 1 ? spans[i].dataset.one : spans[i].dataset.many.replace("{n}", n);
      if (spans[i].textContent !== text) spans[i].textContent = text;
    }
  }
  setInterval(function () { tickExpiries(); tickWaited(); }, 1000);
  document.addEventListener("htmx:oobAfterSwap", function () { tickExpiries(); tickWaited(); });
  // A confirmation ("Challenge declined.") is news for a moment, not for the rest of the visit.
  var fadeTimer = null;
  function fadeNotice() {
    var box = document.querySelector("#lobby-notice[data-fade]");
    if (!box) return;
    clearTimeout(fadeTimer);
    fadeTimer = setTimeout(function () {
      if (box.isConnected) box.innerHTML = "";
    }, 6000);
  }
  document.addEventListener("DOMContentLoaded", fadeNotice);
  document.addEventListener("htmx:oobAfterSwap", fadeNotice);
})();
