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
  // what to do now (issue 41). Through a property of the page, not the bubble's own style or
  // class: htmx settles a swapped element's style and class back to the server's after the
  // swap events, which undid the placing and left the bubble on the status line.
  function place() {
    var felt = document.querySelector(".felt");
    if (!felt) return;
    var top = Math.max(felt.getBoundingClientRect().top + 4, 4);
    document.documentElement.style.setProperty("--quick-bubble-top", top + "px");
  }

  function shown(bubble) {
    bubble.hidden = false;
    place();
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

  // The bubble is fixed to the window, and the felt moves under it when the page scrolls or
  // the phone turns: it follows the felt (placed once, it sat on the status line after the
  // page had scrolled back up, on a phone, issue 41).
  function follow() {
    var bubble = document.getElementById("quick-bubble");
    if (bubble && !bubble.hidden) place();
  }
  window.addEventListener("scroll", follow, { passive: true });
  window.addEventListener("resize", follow);

  // A tap on the bubble puts it away at once: on a small phone it covers part of the felt.
  document.addEventListener("click", function (event) {
    var bubble = event.target.closest && event.target.closest("#quick-bubble");
    if (bubble) bubble.hidden = true;
  });

  document.addEventListener("DOMContentLoaded", fold);
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.target && event.target.id === "quick-messages") fold();
  });
  document.addEventListener("submit", function (event) {
    if (event.target.closest && event.target.closest(".quick-say")) fold();
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    // The event's target is the bubble that was swapped out (htmx 2 names the old element);
    // the one to show and place is the new one, in the page now.
    var target = event.detail && event.detail.target;
    var bubble = document.getElementById("quick-bubble");
    if (target && target.id === "quick-bubble" && bubble) shown(bubble);
  });
})();
