// One-gesture moves (seed 004: "Tap the stock or the discard pile to draw"). Drawing needs no
// script: the stock and the pile's top card are the buttons of forms of their own. Discarding a
// card takes one gesture too: double-tap (double-click) it, drag it onto the discard pile, or
// with the keyboard press Enter (or Space) on it to select it and Enter (or D) to discard it.
// Each only selects the card and presses the Discard button, so it sends exactly the POST the
// buttons send, and the server judges it as it judges them (offline, Bea's driver judges it:
// static/js/offline-bea.js answers the same buttons). Knock and Gin stay buttons. A card
// that may not go (just taken from the pile) refuses with the reason the page shows already.
(function () {
  "use strict";

  var DOUBLE_TAP_MS = 500;
  var PILE_MARGIN = 12; // px around the pile's top card that still count as on it
  var SAME_SPOT = 24; // px: two taps this close are on one spot
  var PENDING_MS = 3000; // how long a double tap waits for its Discard button

  function notice(message) {
    var box = document.getElementById("notice");
    if (!box || !message) return;
    box.innerHTML = "";
    var p = document.createElement("p");
    p.textContent = message;
    box.appendChild(p);
  }

  function select(radio) {
    if (radio.checked) return;
    radio.checked = true;
    radio.dispatchEvent(new Event("change", { bubbles: true })); // table.js enables Discard
  }

  // Discard the card of hand slot ``slot``; false when no discard is this page's to make now.
  function discard(slot) {
    var radio = slot && slot.querySelector("input[name=card]");
    var button = document.querySelector('#actions button[name=move][value=discard]');
    if (!radio || !button) return false;
    if (radio.disabled) {
      var why = document.querySelector("#actions .why [data-refusal]");
      notice(why && why.textContent);
      return true;
    }
    select(radio);
    if (!button.disabled) button.click();
    return true;
  }

  function slotOf(target) {
    return target.closest ? target.closest("#hand .hand-cards > li[data-code]") : null;
  }

  // Double-tap or double-click: two clicks on one card, close together. (Clicks, not dblclick:
  // a touch screen's double tap does not always make one.) The label's own click on its radio
  // is not a second tap.
  // While the hand still slides into place (after a draw, the cards make room for the new one)
  // the second tap may land on the neighbour that slid under the finger: two taps on one spot
  // are one double tap, on the card the first one hit (issue 41).
  var lastTap = { code: "", at: 0, x: 0, y: 0 };
  function sameSpot(event) {
    return Math.abs(event.clientX - lastTap.x) <= SAME_SPOT && Math.abs(event.clientY - lastTap.y) <= SAME_SPOT;
  }
  function slotWith(code) {
    return document.querySelector('#hand .hand-cards > li[data-code="' + code + '"]');
  }
  document.addEventListener("click", function (event) {
    var slot = slotOf(event.target);
    if (!slot || event.target.matches("input")) return;
    var code = slot.dataset.code;
    var soon = event.timeStamp - lastTap.at < DOUBLE_TAP_MS;
    if (soon && (lastTap.code === code || (sameSpot(event) && slotWith(lastTap.code)))) {
      var first = slotWith(lastTap.code) || slot;
      lastTap = { code: "", at: 0, x: 0, y: 0 };
      discardSoon(first);
    } else {
      lastTap = { code: code, at: event.timeStamp, x: event.clientX, y: event.clientY };
    }
  });

  // A double tap made while the draw's answer is still on its way (the hand shows the drawn
  // card, the Discard button has not come yet) is made once it comes, not lost.
  var pending = null;
  function discardSoon(slot) {
    if (discard(slot)) return;
    pending = { code: slot.dataset.code, until: Date.now() + PENDING_MS };
  }
  function retryPending() {
    if (!pending) return;
    var wanted = pending;
    pending = null;
    var slot = slotWith(wanted.code);
    if (slot && Date.now() <= wanted.until && !discard(slot)) pending = wanted;
  }
  document.addEventListener("htmx:afterSettle", function () { setTimeout(retryPending, 0); });
  document.addEventListener("htmx:oobAfterSwap", function () { setTimeout(retryPending, 0); });
  document.addEventListener("gin:swapped", function () { setTimeout(retryPending, 0); });

  document.addEventListener("keydown", function (event) {
    var radio = event.target;
    if (!radio.matches || !radio.matches("#hand input[name=card]")) return;
    if (event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
    var enter = event.key === "Enter";
    if (!enter && event.key !== "d" && event.key !== "D") return;
    // Enter would otherwise submit the form with its first button (Sort).
    event.preventDefault();
    if (radio.checked) discard(slotOf(radio));
    else select(radio);
  });

  // Dragging a card onto the discard pile. The hand is a SortableJS list (arrange.js), which
  // announces "start" and "end" as DOM events; where the pointer is while a card is dragged is
  // read from the drag (mouse) or pointer and touch (touch screen) events.
  var point = null;
  function pile() {
    return document.querySelector("#pile .discard");
  }
  function overPile(at) {
    var target = pile();
    if (!target || !at) return false;
    var r = target.getBoundingClientRect();
    return (
      at.x >= r.left - PILE_MARGIN && at.x <= r.right + PILE_MARGIN &&
      at.y >= r.top - PILE_MARGIN && at.y <= r.bottom + PILE_MARGIN
    );
  }
  function track(event) {
    if (!point) return;
    var source = event.touches && event.touches[0] ? event.touches[0] : event;
    if (source.clientX === undefined || (!source.clientX && !source.clientY)) return;
    point = { x: source.clientX, y: source.clientY };
    var target = pile();
    if (target) target.classList.toggle("drop-target", overPile(point));
    // A card held over the pile may be dropped there (a mouse drag is the browser's own).
    if (event.type === "dragover" && overPile(point)) event.preventDefault();
  }
  ["dragover", "pointermove", "touchmove", "mousemove"].forEach(function (type) {
    document.addEventListener(type, track, { capture: true, passive: type !== "dragover" });
  });
  document.addEventListener("drop", function (event) {
    if (point && overPile(point)) event.preventDefault();
  }, true);
  document.addEventListener("start", function (event) {
    if (event.target.matches && event.target.matches("#hand .hand-cards")) point = { x: 0, y: 0 };
  });
  // On a touch screen SortableJS swallows the first click after a drag (meant for one a lifted
  // finger might make), so it would swallow the Discard press below, made as the drag ends. A
  // click of our own at the root, which does not bubble, is the one it swallows; when it
  // swallows none, that click reaches nothing.
  function releaseClicks() {
    document.documentElement.dispatchEvent(new MouseEvent("click"));
  }
  document.addEventListener("end", function (event) {
    var list = event.target;
    if (!point || !list.matches || !list.matches("#hand .hand-cards")) return;
    releaseClicks();
    var dropped = overPile(point);
    point = null;
    var target = pile();
    if (target) target.classList.remove("drop-target");
    var slot = event.item;
    if (!dropped || !slot || !slot.querySelector("input[name=card]")) return;
    // A discard, not a new order: the card goes back to its place (arrange.js saves nothing)
    // until the server's answer takes it out of the hand.
    event.ginDiscarded = true;
    var others = Array.prototype.filter.call(list.children, function (li) { return li !== slot; });
    list.insertBefore(slot, others[event.oldIndex] || null);
    discard(slot);
  });
})();
