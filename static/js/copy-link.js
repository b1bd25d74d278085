// Copying a link from its read-only field: the Clipboard API where the page may use it (a
// secure context), else the link is selected in its field for the player to copy. A
// button[data-copy] copies the field it names (the private table's invitation); the results
// card's Share button (share.js) falls back on the same.
(function () {
  "use strict";
  function copyLink(button, field) {
    function selectIt() {
      field.focus();
      field.select();
      button.textContent = button.dataset.select;
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () {
        button.textContent = button.dataset.copied;
      }, selectIt);
    } else {
      selectIt();
    }
  }
  window.ginCopyLink = copyLink;
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) return;
    var field = document.querySelector(button.dataset.copy);
    if (field) copyLink(button, field);
  });
})();
