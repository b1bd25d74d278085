// Full screen on a phone (the Fullscreen API): the table fills the screen, without the
// browser's bars, which matters most with the phone turned sideways. Offered only where the
// browser allows it and the screen is a phone's (touch, and small); the button says which state
// it is in, as the sound toggle does.
(function () {
  "use strict";

  function phone() {
    return matchMedia("(pointer: coarse)").matches && Math.min(screen.width, screen.height) <= 600;
  }

  function show(button) {
    var on = !!document.fullscreenElement;
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("fullscreen-toggle");
    var table = document.getElementById("table");
    if (!button || !table || !document.fullscreenEnabled || !phone()) return;
    button.hidden = false;
    show(button);
    button.addEventListener("click", function () {
      if (document.fullscreenElement) {
        document.exitFullscreen();
      } else {
        // Refused (no user gesture, a policy): the button simply stays "off".
        table.requestFullscreen({ navigationUI: "hide" }).catch(function () {});
      }
    });
    document.addEventListener("fullscreenchange", function () {
      show(button);
    });
  });
})();
