// Keyboard focus stays where it was across every update. An htmx answer or a socket frame
// replaces whole regions, and the focused card or button goes with its old region: the browser
// would put focus back on the page's top. So the element focused last is remembered by a key
// that survives a re-render (a card's data-code, a control's name and value, a link's href, an
// id) and, when it is replaced, its successor is focused; if it is gone (a discarded card, the
// Draw button once drawn), the hand (see fallback). Focus someone moved away on purpose (a
// click elsewhere) is never taken back.
(function () {
  "use strict";

  var FOCUSABLE = 'button:not([disabled]), a[href], input:not([disabled]):not([type="hidden"]), [tabindex="0"]';
  var last = null;
  var key = null;

  function regionOf(el) {
    var region = el.closest(".region[id], #pass-screen, [id]");
    return region ? region.id : "";
  }

  function keyOf(el) {
    var card = el.closest("#hand li[data-code]");
    if (card) return { region: "hand", code: card.dataset.code };
    return {
      region: regionOf(el),
      id: el.id || "",
      name: el.getAttribute("name") || "",
      value: el.getAttribute("value") || "",
      href: el.getAttribute("href") || "",
    };
  }

  function usable(el) {
    return el && el.matches(FOCUSABLE) ? el : null;
  }

  function inRegion(region, selector) {
    return region ? usable(region.querySelector(selector)) : null;
  }

  function successor(k) {
    var region = document.getElementById(k.region);
    if (k.code) {
      var slot = document.querySelector('#hand li[data-code="' + k.code + '"]');
      if (slot) return usable(slot.querySelector("input[name=card]")) || usable(slot);
    }
    if (k.id && !k.name) return usable(document.getElementById(k.id));
    if (region && k.name) {
      var named = region.querySelectorAll('[name="' + k.name + '"]');
      for (var i = 0; i < named.length; i++) {
        if (named[i].getAttribute("value") === k.value && usable(named[i])) return named[i];
      }
      if (named.length && usable(named[0])) return named[0]; // a Sort button's next sort
    }
    if (region && k.href) return inRegion(region, 'a[href="' + k.href + '"]');
    return null;
  }

  // What was focused is gone (pressed Draw, Discard, Pass, Next hand; a card discarded): back
  // to the hand, at the card selected or just drawn, else its first card; else the region's
  // first control, the actions', or the page's autofocus (the pass screen's Reveal).
  function fallback(k) {
    var hand = document.getElementById("hand");
    return (
      inRegion(hand, "input[name=card]:checked") ||
      inRegion(hand, "li:has(.just-drawn) input[name=card]") ||
      inRegion(hand, "input[name=card]:not([disabled]), .hand-cards > li[tabindex='0']") ||
      inRegion(document.getElementById(k.region), FOCUSABLE) ||
      inRegion(document.getElementById("actions"), FOCUSABLE) ||
      usable(document.querySelector("[autofocus]"))
    );
  }

  function restore() {
    var active = document.activeElement;
    if (!key || !last || last.isConnected || (active && active !== document.body)) return;
    var target = successor(key) || fallback(key);
    // Nothing to go back to (the pass screen came): forget the key, a card's code included.
    if (target) target.focus({ preventScroll: true });
    else key = last = null;
  }

  document.addEventListener("focusin", function (event) {
    if (!event.target.closest || !event.target.closest("#main")) return;
    last = event.target;
    key = keyOf(last);
  });
  // Every swap, whoever made it (htmx, the socket, table.js), runs in one task; the observer
  // answers after it, before the page is painted, so focus never visibly jumps.
  new MutationObserver(restore).observe(document.documentElement, { childList: true, subtree: true });
})();
