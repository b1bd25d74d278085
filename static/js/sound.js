// Sound at the table, off until the player turns it on. The choice is kept in this browser
// (localStorage) and, when signed in, with the account, which a new browser starts from. A
// challenge's sound is the lobby's (lobby.js), under the same choice.
// The sounds are synthesised with the Web Audio API: no files, no network.
(function () {
  "use strict";

  // The same key as the lobby's "Sound when someone challenges me" (lobby.js): one choice.
  var KEY = "lobby.sound";
  var TONES = {
    turn: [[660, 0, 0.12], [880, 0.13, 0.16]],
    draw: [[420, 0, 0.07]],
    discard: [[300, 0, 0.08]],
    knock: [[520, 0, 0.1], [390, 0.12, 0.1], [780, 0.24, 0.25]],
    // A fanfare: a rising major arpeggio; Big Gin's goes an octave further.
    gin: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.12], [1047, 0.36, 0.4]],
    big_gin: [[523, 0, 0.1], [659, 0.1, 0.1], [784, 0.2, 0.1], [1047, 0.3, 0.1], [1319, 0.4, 0.1], [1568, 0.5, 0.1], [2093, 0.6, 0.5]],
  };
  var audio = null;
  var played = [];

  function toggle() {
    return document.getElementById("sound-toggle");
  }

  function enabled() {
    var stored = null;
    try { stored = localStorage.getItem(KEY); } catch (e) { /* private mode */ }
    if (stored) return stored === "on";
    var button = toggle();
    return !!(button && button.dataset.account === "on");
  }

  function show() {
    var button = toggle();
    if (!button) return;
    var on = enabled();
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }

  function beep(name) {
    if (!enabled() || !TONES[name]) return;
    played.push(name);
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    // Audio starts suspended until the page has had a user gesture; a tap resumes it.
    if (audio.state === "suspended") audio.resume();
    var now = audio.currentTime;
    TONES[name].forEach(function (tone) {
      var osc = audio.createOscillator();
      var gain = audio.createGain();
      osc.frequency.value = tone[0];
      osc.type = "sine";
      gain.gain.setValueAtTime(0.0001, now + tone[1]);
      gain.gain.exponentialRampToValueAtTime(0.2, now + tone[1] + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + tone[1] + tone[2]);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + tone[1]);
      osc.stop(now + tone[1] + tone[2] + 0.02);
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#sound-toggle");
    if (!button) return;
    var on = !enabled();
    try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
    show();
    if (on) beep("turn");
    if (button.dataset.saveUrl) {
      var token = "";
      try { token = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { /* none */ }
      fetch(button.dataset.saveUrl, {
        method: "POST",
        headers: { "X-CSRFToken": token },
        body: new URLSearchParams({ on: on ? "1" : "0" }),
        credentials: "same-origin",
      });
    }
  });

  document.addEventListener("gin:sound", function (event) { beep(event.detail); });
  document.addEventListener("DOMContentLoaded", show);
  // Pass and play swaps the table in after its pass screen, toggle and all.
  document.addEventListener("htmx:afterSettle", show);
  document.addEventListener("gin:swapped", show);
  window.ginSound = { enabled: enabled, played: played };
})();
