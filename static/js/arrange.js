// Arranging one's hand: drag a card (SortableJS, mouse and touch) or move the focused card
// with Shift+Left/Right. The new order is saved on the server for this seat; the page has
// moved the card already, so the answer is empty. The rules never depend on the order.
(function () {
  "use strict";

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  function codes(list) {
    return Array.prototype.map.call(list.querySelectorAll(":scope > li[data-code]"), function (li) {
      return li.dataset.code;
    });
  }

  // The new order goes to the server where the list names its URL; the page hears it in any
  // case ("gin:arranged", its codes in detail.order: Bea offline keeps it in the browser).
  function save(list) {
    var url = list.dataset.orderUrl;
    var order = codes(list);
    // The group gaps of a sort no longer mean anything once the player moved a card.
    Array.prototype.forEach.call(list.querySelectorAll(".group-start"), function (li) {
      li.classList.remove("group-start");
    });
    if (url) {
      var body = new URLSearchParams();
      body.set("order", order.join(" "));
      fetch(url, {
        method: "POST",
        headers: { "X-CSRFToken": csrfToken(), "HX-Request": "true" },
        body: body,
        credentials: "same-origin",
      });
    }
    list.dispatchEvent(new CustomEvent("gin:arranged", { bubbles: true, detail: { order: order } }));
  }

  function setUp() {
    var list = document.querySelector("#hand .hand-cards");
    if (!list || list.dataset.sortable || !window.Sortable) return;
    list.dataset.sortable = "1";
    window.Sortable.create(list, {
      animation: matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : 150,
      // On touch a short hold starts a drag, so a tap still selects the card to discard.
      delay: 120,
      delayOnTouchOnly: true,
      ghostClass: "drag-ghost",
      onEnd: function (event) {
        // Dropped on the discard pile: a discard (gestures.js), not a new order.
        if (event.ginDiscarded) return;
        if (event.oldIndex !== event.newIndex) save(list);
      },
    });
  }

  document.addEventListener("keydown", function (event) {
    if (!event.shiftKey || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
    var slot = event.target.closest && event.target.closest("#hand .hand-cards > li");
    if (!slot) return;
    // Shift+arrow would otherwise move the radio selection: here it moves the card.
    event.preventDefault();
    var list = slot.parentNode;
    if (event.key === "ArrowLeft" && slot.previousElementSibling) {
      list.insertBefore(slot, slot.previousElementSibling);
    } else if (event.key === "ArrowRight" && slot.nextElementSibling) {
      list.insertBefore(slot.nextElementSibling, slot);
    } else {
      return;
    }
    event.target.focus();
    save(list);
  });

  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("htmx:afterSettle", setUp);
  document.addEventListener("htmx:oobAfterSwap", setUp);
  document.addEventListener("gin:swapped", setUp);
})();
