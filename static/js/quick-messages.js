// A quick message's bubble arrives over the table socket as an out-of-band swap of
// #quick-bubble (games/quick_messages.py). It shows for a few seconds, then hides again; a
// new one restarts the time. Nothing here sends anything: the buttons are plain forms.
(function () {
  "use strict";
  var SHOWN_MS = 5000;
  var timer = null;

  function shown(bubble) {
    bubble.hidden = false;
    bubble.classList.add("fresh");
    if (timer) clearTimeout(timer);
    timer = setTimeout(function () {
      var current = document.getElementById("quick-bubble");
      if (current) current.hidden = true;
    }, SHOWN_MS);
  }

  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === "quick-bubble") shown(target);
  });
})();
