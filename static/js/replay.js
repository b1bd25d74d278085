// The replay's keys: left and right step through the hand by following the Previous and Next
// links, which htmx loads into the stage (or, without htmx, the browser follows). Everything
// works without this script; it only adds the keys and opens a link to #move-n at that move.
(function () {
  "use strict";

  var KEYS = { ArrowLeft: "replay-previous", ArrowRight: "replay-next" };

  document.addEventListener("keydown", function (event) {
    var id = KEYS[event.key];
    if (!id || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    // Arrows keep their meaning in a form field (the language switcher's select, say).
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
      return;
    }
    var link = document.getElementById(id);
    if (!link || !link.getAttribute("href")) return;
    event.preventDefault();
    if (window.htmx) {
      // As the link's own hx-get would (its target, swap and pushed URL), even while htmx has
      // not yet bound a link that the last step just swapped in: a plain click on it then would
      // load a whole new page.
      htmx.ajax("GET", link.getAttribute("href"), { source: link });
    } else {
      link.click();
    }
  });

  // The server picks the position by ?move=n; a fragment (#move-12) never reaches it.
  var wanted = /^#move-(\d+)$/.exec(window.location.hash);
  var stage = document.getElementById("replay-stage");
  if (wanted && stage && stage.dataset.move !== wanted[1]) {
    window.location.replace(window.location.pathname + "?move=" + wanted[1] + window.location.hash);
  }
})();
