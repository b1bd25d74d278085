// The lesson's panel (games/lesson, templates/games/_lesson.html). When a move, the learner's
// or Bea's, brings a new step while the panel is out of sight above (on a phone the learner
// scrolled down to a button under the hand, such as Next hand), the page goes back up to it:
// the next instruction is read before the next move. Focus stays where it was; a panel in
// sight is left alone, so nothing jumps while the learner reads or plays.
(function () {
  "use strict";

  var shown = null;

  function follow() {
    var panel = document.getElementById("lesson");
    if (!panel || panel.dataset.step === shown) return;
    var first = shown === null;
    shown = panel.dataset.step;
    if (!first && panel.getBoundingClientRect().top < 0) {
      panel.scrollIntoView({ block: "start" });
    }
  }

  document.addEventListener("DOMContentLoaded", follow);
  document.addEventListener("htmx:afterSettle", follow);
  document.addEventListener("htmx:oobAfterSwap", follow);
})();
