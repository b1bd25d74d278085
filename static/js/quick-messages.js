// A quick message's bubble arrives over the table socket as an out-of-band swap of
// #quick-bubble (games/live/quick_messages.py). It shows for a few seconds, then hides again; a
// new one restarts the time. Nothing here sends anything: the buttons are plain forms.
(function () {
  "use strict";
  var SHOWN_MS = 5000;
  // The sizes static/css/phone.css is for: an upright phone, or one turned sideways.
  var PHONE = window.matchMedia("(max-width: 39.99rem), (orientation: landscape) and (max-height: 32rem)");
  var timer = null;

  // Over the top of the felt, where the opponent sits: never over the status line, which says
  // what to do now (issue 41).
  function place(bubble) {
    var felt = document.querySelector(".felt");
    if (!felt) return;
    var top = Math.max(felt.getBoundingClientRect().top + 4, 4);
    bubble.style.top = top + "px";
  }

  function shown(bubble) {
    bubble.hidden = false;
    place(bubble);
    bubble.classList.add("fresh");
    if (timer) clearTimeout(timer);
    timer = setTimeout(function () {
      var current = document.getElementById("quick-bubble");
      if (current) current.hidden = true;
    }, SHOWN_MS);
  }

  // On a phone the phrases fold away behind their summary: open, they would push or cover
  // the cards; a phrase sent folds them again.
  function fold() {
    if (!PHONE.matches) return;
    var say = document.querySelectorAll("#quick-messages details.quick-say");
    for (var i = 0; i < say.length; i++) say[i].open = false;
  }

  document.addEventListener("DOMContentLoaded", fold);
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.target && event.target.id === "quick-messages") fold();
  });
  document.addEventListener("submit", function (event) {
    if (event.target.closest && event.target.closest(".quick-say")) fold();
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === "quick-bubble") shown(target);
  });
})();
