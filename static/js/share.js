// The results card's Share button (templates/games/results_card/card.html): the phone's own
// share sheet where there is one, else the link is copied (a secure context), else selected
// in its read-only field for the player to copy.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-share]");
    if (!button) return;
    var field = document.querySelector(button.dataset.share);
    if (!field) return;
    function selectIt() {
      field.focus();
      field.select();
      button.textContent = button.dataset.select;
    }
    function copyIt() {
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(function () {
          button.textContent = button.dataset.copied;
        }, selectIt);
      } else {
        selectIt();
      }
    }
    if (navigator.share) {
      navigator.share({ title: button.dataset.title, url: field.value }).catch(function (error) {
        if (!error || error.name !== "AbortError") copyIt();
      });
    } else {
      copyIt();
    }
  });
})();
