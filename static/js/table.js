// The table's small client side: keeps Discard/Knock/Gin in step with the selected card and
// shows a message when a request fails outside the server's own refusals. Everything works
// without it (the server checks every move); this only makes the buttons honest sooner.
(function () {
  "use strict";

  // The card the player picked last, kept through redraws of the table: a redraw that still
  // offers it (the answer to their own draw or sort, a push arriving just after the tap) picks
  // it again rather than dropping it, which left Discard disabled until the card was tapped
  // again. A card tapped while a move is on its way (the hand not yet one to pick from) is
  // picked when that hand arrives. Sending a move forgets it.
  var wanted = null;
  function keepPick(form) {
    if (!wanted || form.querySelector('input[name="card"]:checked')) return;
    var inputs = form.querySelectorAll('input[name="card"]');
    for (var i = 0; i < inputs.length; i++) {
      if (inputs[i].value === wanted && !inputs[i].disabled) inputs[i].checked = true;
    }
  }
  document.addEventListener("click", function (event) {
    if (acting === null && pending === 0) return;
    var slot = event.target.closest && event.target.closest("#hand li[data-code]");
    if (slot && !slot.querySelector('input[name="card"]')) wanted = slot.dataset.code;
  });
  document.addEventListener("htmx:configRequest", function (event) {
    if (/\/act$/.test(event.detail.path || "")) wanted = null;
  });
  document.addEventListener("submit", function (event) {
    // Bea offline answers the form's submit itself (offline-bea.js): no request to see.
    if (event.submitter && event.submitter.name === "move") wanted = null;
  });

  function refreshSelection() {
    var form = document.getElementById("play");
    if (!form) return;
    keepPick(form);
    var selection = form.querySelector(".selection");
    if (!selection) return;
    var picked = form.querySelector('input[name="card"]:checked');
    var buttons = {
      card: form.querySelector('button[data-needs="card"]'),
      knock: form.querySelector('button[data-needs="knock"]'),
      gin: form.querySelector('button[data-needs="gin"]'),
    };
    if (buttons.card) buttons.card.disabled = !picked;
    // data-any: the server found a knock for some card; otherwise Knock stays disabled.
    var knockable = buttons.knock && buttons.knock.hasAttribute("data-any");
    if (knockable) buttons.knock.disabled = !(picked && picked.hasAttribute("data-knock"));
    if (buttons.gin) buttons.gin.disabled = !(picked && picked.hasAttribute("data-gin"));
    if (!picked) {
      selection.textContent = selection.dataset.none;
      return;
    }
    var text = selection.dataset.some
      .replace("{card}", picked.dataset.label)
      .replace("{after}", picked.dataset.after);
    if (knockable && !picked.hasAttribute("data-knock") && !picked.hasAttribute("data-gin")) {
      text += " " + selection.dataset.noknock;
    }
    selection.textContent = text;
  }

  function notice(message) {
    var box = document.getElementById("notice");
    if (!box) return;
    box.innerHTML = "";
    var p = document.createElement("p");
    p.textContent = message;
    box.appendChild(p);
  }

  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches('#play input[name="card"]')) {
      wanted = event.target.value;
      refreshSelection();
    }
  });
  document.addEventListener("DOMContentLoaded", refreshSelection);
  document.addEventListener("htmx:afterSettle", refreshSelection);
  document.addEventListener("htmx:afterSwap", refreshSelection);
  document.addEventListener("gin:swapped", refreshSelection); // Bea offline's own redraw
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    var table = document.getElementById("table");
    var template = (table && table.dataset.failed) || "The server refused that ({status}). Reload the page.";
    notice(template.replace("{status}", status));
  });
  // The match socket (live play). A frame is either out-of-band HTML, which the ws extension
  // swaps, or a small JSON message: go to the next match, or an error to ignore.
  function pageVersion() {
    var el = document.getElementById("table-version");
    return el ? parseInt(el.dataset.version, 10) : -1;
  }
  // An accepted rematch sends this page on twice, by the socket's redirect and the answer's
  // HX-Redirect: leave-once.js follows whichever comes first.
  // Frames carrying a position (#table-version) are checked against the page's own:
  // - older: rendered before this page's own move answer arrived; it must not undo it;
  // - the same: the page has it already (from its POST); swapping the hand again would drop
  //   a card just selected, so only the live region (presence, offers) is taken from it;
  // - while this page's own request is in flight: most likely that move's echo, held until
  //   the answer is in and then judged as above.
  var pending = 0;
  var deferred = null;
  function frameVersion(message) {
    var found = /id="table-version" data-version="(\d+)"/.exec(message);
    return found ? parseInt(found[1], 10) : null;
  }
  function takeLiveOnly(message) {
    var parsed = document.createElement("template");
    parsed.innerHTML = message;
    var fresh = parsed.content.querySelector("#live");
    var current = document.getElementById("live");
    if (fresh && current) {
      current.replaceWith(fresh);
      htmx.process(fresh);
    }
  }
  // The provably fair shuffle (docs/fairness.md): this seat's first move of a hand carries a
  // random seed of this browser's own, which cuts the stock. The server marks when it wants
  // one (#actions[data-seed-wanted]); later moves carry none.
  document.addEventListener("htmx:configRequest", function (event) {
    if (!/\/act$/.test(event.detail.path || "")) return;
    if (!document.querySelector("#actions[data-seed-wanted]") || !window.crypto) return;
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    event.detail.parameters.seed = Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  });

  // Moves go over the table's own socket while it is open (games.web.table_socket): the form's
  // fields as one frame, answered on the socket after the commit with the regions the move
  // changed, or the refusal with the table as it is. No request, no second render of the
  // same position. Without an open socket the form posts as before.
  var socket = null; // the ws extension's wrapper, while its socket is open
  var acting = null; // a move sent and not yet answered (its give-up timer)
  var sent = null; // that move's frame
  var unanswered = null; // a move whose socket closed before its answer
  function answered() {
    if (acting !== null) clearTimeout(acting);
    acting = null;
    sent = null;
  }
  function send(frame) {
    // No answer (a socket that died without closing): the buttons work again; the version
    // makes a move sent twice count once.
    acting = setTimeout(answered, 10000);
    sent = frame;
    socket.sendImmediately(JSON.stringify(frame));
  }
  // A move whose socket closed before its answer (its server stopped: a restart, docs/deploy.md)
  // is sent again on the next socket when that socket's first table still stands at the
  // version the move was made on: it was never made. A table that moved on shows what became
  // of it. So the player need not tap again, and the version keeps it from counting twice.
  function sendAgain(version) {
    var frame = unanswered;
    unanswered = null;
    if (socket && version === parseInt(frame.version, 10)) send(frame);
  }
  document.addEventListener("htmx:wsOpen", function (event) { socket = event.detail.socketWrapper; });
  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    var table = document.getElementById("table");
    var door = table && table.dataset.socketAct;
    if (!socket || !door || detail.verb !== "post" || detail.path !== door) return;
    event.preventDefault();
    if (acting !== null) return; // one move at a time, as hx-sync drops a second
    var frame = { type: "act" };
    ["move", "card", "seed", "version"].forEach(function (name) {
      var value = detail.formData.get(name);
      if (value !== null) frame[name] = value;
    });
    send(frame);
  });
  document.addEventListener("htmx:beforeRequest", function () { pending += 1; });
  document.addEventListener("htmx:afterRequest", function () {
    pending = Math.max(0, pending - 1);
    if (pending > 0 || deferred === null) return;
    var message = deferred;
    deferred = null;
    var version = frameVersion(message);
    if (version > pageVersion()) htmx.swap(document.body, message, { swapStyle: "none" });
    else if (version === pageVersion()) takeLiveOnly(message);
  });
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var message = event.detail.message;
    if (typeof message !== "string") return;
    if (message.charAt(0) === "{") {
      event.preventDefault();
      var data;
      try { data = JSON.parse(message); } catch (e) { return; }
      if (data.type === "redirect") window.ginLeave(data.url);
      if (data.type === "answer" || data.type === "error") answered();
      // A move's answer, refused or not, is shown whole: a refusal's table is the true one
      // even at the version this page shows, and its notice says why.
      if (data.type === "answer" && data.html) htmx.swap(document.body, data.html, { swapStyle: "none" });
      else if (data.type === "answer" && data.message) notice(data.message);
      return;
    }
    var version = frameVersion(message);
    if (unanswered !== null && version !== null) sendAgain(version);
    if (version === null || (pending === 0 && version > pageVersion())) return;
    event.preventDefault();
    if (pending > 0) deferred = message;
    else if (version === pageVersion()) takeLiveOnly(message);
  });
  // The extension retries by itself after an abnormal close; a server going away for a
  // restart closes with 1001, so retry then too. Every (re)connect gets a full refresh.
  document.addEventListener("htmx:wsClose", function (event) {
    // A move in flight is settled by the full refresh of the next connect (sendAgain).
    socket = null;
    unanswered = sent;
    answered();
    var detail = event.detail || {};
    var code = detail.event ? detail.event.code : 0;
    if (code === 1001 && detail.socketWrapper && detail.socketWrapper.reconnect) {
      setTimeout(detail.socketWrapper.reconnect, 1000 + Math.random() * 2000);
    }
  });
  // The move clock of a lobby match counts down on the page; the server decides when it ran
  // out (the claim button then arrives with the next update).
  function tickClocks() {
    var clocks = document.querySelectorAll("time.countdown[datetime]");
    for (var i = 0; i < clocks.length; i++) {
      var left = Math.max(0, Math.floor((Date.parse(clocks[i].getAttribute("datetime")) - Date.now()) / 1000));
      var seconds = left % 60;
      clocks[i].textContent = Math.floor(left / 60) + ":" + (seconds < 10 ? "0" : "") + seconds;
      clocks[i].classList.toggle("expired", left === 0);
      clocks[i].classList.toggle("short", left > 0 && left <= 20);
    }
  }
  // Passing news ("Bob declined your offer") goes away by itself after a while.
  function fadeNews() {
    var news = document.querySelectorAll("[data-hide-after]");
    for (var i = 0; i < news.length; i++) {
      if (Date.parse(news[i].dataset.hideAfter) <= Date.now()) news[i].hidden = true;
    }
  }
  setInterval(fadeNews, 1000);
  document.addEventListener("htmx:afterSettle", fadeNews);
  document.addEventListener("DOMContentLoaded", fadeNews);
  // Once both seats are taken the invitation folds away to its one-line summary (it stays
  // there for the guest to reopen: the link is also their way back to the seat).
  var tableFull = null;
  function foldInvite() {
    var full = !!document.querySelector("#live[data-full]");
    var invite = document.getElementById("invite");
    if (full && tableFull === false && invite) invite.open = false;
    tableFull = full;
  }
  document.addEventListener("DOMContentLoaded", foldInvite);
  document.addEventListener("htmx:afterSettle", foldInvite);
  document.addEventListener("htmx:oobAfterSwap", foldInvite);
  setInterval(tickClocks, 1000);
  document.addEventListener("htmx:afterSettle", tickClocks);
  document.addEventListener("htmx:sendError", function () {
    var table = document.getElementById("table");
    notice((table && table.dataset.offline) || "No connection to the server. Try again.");
  });
})();
