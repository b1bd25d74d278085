// While it is the reader's move and the tab is hidden, the tab says so: the title starts with
// "(1) " and the favicon gets a dot. Both go back when the tab is shown again or the move is no
// longer theirs. The table marks the reader's move on its status region (#status.your-turn);
// this only reads that mark after each swap, so it needs nothing from table.js.
(function () {
  "use strict";

  var PREFIX = "(1) ";
  var icon = document.querySelector('link[rel="icon"][data-turn-icon]');
  var plainIcon = icon ? icon.getAttribute("href") : null;
  var shown = false;

  function yourMove() {
    return !!document.querySelector("#status.your-turn");
  }

  function refresh() {
    var wanted = document.hidden && yourMove();
    if (wanted === shown) return;
    shown = wanted;
    if (wanted) {
      if (document.title.indexOf(PREFIX) !== 0) document.title = PREFIX + document.title;
      if (icon) icon.setAttribute("href", icon.dataset.turnIcon);
    } else {
      if (document.title.indexOf(PREFIX) === 0) document.title = document.title.slice(PREFIX.length);
      if (icon) icon.setAttribute("href", plainIcon);
    }
  }

  if (!document.getElementById("status")) return; // not a table
  document.addEventListener("visibilitychange", refresh);
  // A move's answer (afterSettle) and a pushed move (oobAfterSwap, wsAfterMessage) both bring
  // a new #status.
  document.addEventListener("htmx:afterSettle", refresh);
  document.addEventListener("htmx:oobAfterSwap", refresh);
  document.addEventListener("htmx:wsAfterMessage", refresh);
  refresh();
})();
