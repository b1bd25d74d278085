// Bea while you wait (templates/lobby/playnow/offer.html): count down the seconds the server
// said were left when it rendered the tile, and hold "Play Bea while I wait" until then. Counted
// from when this page received the tile, not from the clocks of two machines.
(function () {
  "use strict";

  function tick() {
    var boxes = document.querySelectorAll("[data-playnow] .playnow-countdown[data-left]");
    for (var i = 0; i < boxes.length; i++) {
      var box = boxes[i];
      if (!box.dataset.received) box.dataset.received = String(Date.now());
      var elapsed = (Date.now() - Number(box.dataset.received)) / 1000;
      var left = Math.max(0, Math.ceil(Number(box.dataset.left) - elapsed));
      var text = left === 0 ? box.dataset.ready
        : left === 1 ? box.dataset.one : box.dataset.many.replace("{n}", left);
      if (box.textContent !== text) box.textContent = text;
      var button = box.closest("[data-playnow]").querySelector("[data-playnow-play]");
      if (button) button.disabled = left > 0;
    }
  }
  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:oobAfterSwap", tick);
  document.addEventListener("htmx:afterSettle", tick);
})();
