// First-match tips: "Got it" takes them away without reloading the table. Without JavaScript
// the button reloads the table, which no longer shows them (the server showed them once).
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-dismiss-tips]");
    if (!button) return;
    event.preventDefault();
    var tips = document.getElementById("tips");
    if (tips) tips.remove();
  });
})();
