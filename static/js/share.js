// The results card's Share button (templates/games/results_card/card.html): the phone's own
// share sheet where there is one, else the link is copied (a secure context), else selected
// in its read-only field for the player to copy (copy-link.js).
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-share]");
    if (!button) return;
    var field = document.querySelector(button.dataset.share);
    if (!field) return;
    var copyIt = function () { window.ginCopyLink(button, field); };
    if (navigator.share) {
      navigator.share({ title: button.dataset.title, url: field.value }).catch(function (error) {
        if (!error || error.name !== "AbortError") copyIt();
      });
    } else {
      copyIt();
    }
  });
})();
