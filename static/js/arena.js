// Arenas: every countdown on the page ticks each second (the server's text stays right without
// JavaScript until the next load), and a push naming this player's new match sends the page there.
(function () {
  "use strict";

  function clock(seconds) {
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(s).padStart(2, "0");
  }

  function tick() {
    var found = document.querySelectorAll("[data-countdown]");
    for (var i = 0; i < found.length; i++) {
      var left = Math.max(0, Math.round((Date.parse(found[i].dataset.countdown) - Date.now()) / 1000));
      found[i].textContent = clock(left);
    }
  }

  // A join that pairs the player at once is answered with HX-Redirect, and the same pairing is
  // pushed over the page's socket: leave-once.js follows whichever comes first.
  function followRedirect() {
    var target = document.getElementById("arena-redirect");
    if (target) window.ginLeave(target.getAttribute("data-redirect"));
  }

  document.addEventListener("DOMContentLoaded", function () {
    tick();
    window.setInterval(tick, 1000);
  });
  document.addEventListener("htmx:wsAfterMessage", followRedirect);
})();
