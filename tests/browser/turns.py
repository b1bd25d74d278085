"""Playing turns in real Chromium, whatever the kind of match and the page's language: a page
records its loads and sockets, a sensible player who never knocks makes its moves, and two
pages (or one shared screen) take turns until the turn has gone round a number of times.

Everything is found by what the server marks, never by English words: the buttons'
``name``/``value``, the pass screen's ``#pass-screen``. Not by ``#status.your-turn``: for a
moment after a swap htmx keeps the old element's attributes on the new one (its settling).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qs

from playwright.sync_api import Frame, Page, Request, WebSocket, expect

TURN_MS = 15_000
# Whatever the page waits for next: its own move (the table shows its buttons only then), the
# next hand, or the pass screen. Not the Deal button of a hand waiting for its seeds: the page
# presses that itself (docs/fairness.md).
ACTION = "#actions button[name=move]:not([value=seed])"
MY_MOVE = f"{ACTION}, #pass-screen"
# A <meta http-equiv="refresh"> that reaches the live page navigates it seconds later: a test
# that plays faster than that would never see the load, so every one inserted is counted.
COUNT_REFRESHES = """
window.ginRefreshes = 0;
new MutationObserver(function (records) {
  records.forEach(function (record) {
    record.addedNodes.forEach(function (node) {
      if (node.nodeType !== 1) return;
      var refresh = 'meta[http-equiv="refresh" i]';
      if (node.matches(refresh) || node.querySelector(refresh)) window.ginRefreshes += 1;
    });
  });
}).observe(document, { childList: true, subtree: true });
"""


@dataclass
class Watch:
    """Every load of a page's main frame and every socket it opened, in order, and whether a
    load is on its way (a refresh scheduled by a meta element in the live page)."""

    page: Page
    events: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.page.add_init_script(COUNT_REFRESHES)
        self.page.on("framenavigated", lambda frame: self._navigated(frame))
        self.page.on("load", lambda page: self.events.append(("load", page.url)))
        self.page.on("websocket", lambda ws: self._socket(ws))
        self.page.on("request", lambda request: self._posted(request))

    def _navigated(self, frame: Frame) -> None:
        if frame == self.page.main_frame:
            self.events.append(("navigation", frame.url))

    def _socket(self, ws: WebSocket) -> None:
        self.events.append(("socket", ws.url))
        if "/ws/games/" in ws.url:
            ws.on("framereceived", lambda _payload: self.events.append(("table frame", "")))
            ws.on("framesent", lambda payload: self._sent(payload))

    def _sent(self, payload: str | bytes) -> None:
        frame = json.loads(payload)
        if frame.get("type") == "act":
            self.events.append(("act frame", str(frame.get("move"))))

    def _posted(self, request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/act"):
            move = parse_qs(request.post_data or "").get("move", ["?"])[0]
            self.events.append(("act post", move))

    def moves(self) -> tuple[list[str], list[str]]:
        """The moves this page sent over its table socket, and those it posted once the socket
        had brought it a frame (so was open): a table's every move goes the first way."""
        sent = [move for kind, move in self.events if kind == "act frame"]
        kinds = [kind for kind, _ in self.events]
        opened = kinds.index("table frame") if "table frame" in kinds else len(kinds)
        posted = [move for kind, move in self.events[opened:] if kind == "act post"]
        return sent, posted

    def since(self, url: str) -> tuple[list[str], list[str]]:
        """The loads (one more for a refresh still to come), and the table sockets, from the
        page's first navigation to ``url`` on (a socket may open before the load event)."""
        scheduled = self.page.evaluate("window.ginRefreshes")
        start = self.events.index(("navigation", url))
        later = self.events[start:]
        loads = [u for kind, u in later if kind == "load"]
        loads += ["(a refresh on its way)"] * min(1, scheduled)
        sockets = [u for kind, u in later if kind == "socket" and "/ws/games/" in u]
        return loads, sockets


def version(page: Page) -> int:
    """The position the page shows (-1 on a pass screen, which shows none)."""
    return int(
        page.evaluate(
            "() => { const v = document.getElementById('table-version');"
            " return v ? parseInt(v.dataset.version, 10) : -1; }"
        )
    )


def wait_for_news(page: Page, shown: int) -> None:
    """Until the page shows a position after ``shown``, or the pass screen."""
    page.wait_for_function(
        "v => { const t = document.getElementById('table-version');"
        " return !t || parseInt(t.dataset.version, 10) > v; }",
        arg=shown,
        timeout=TURN_MS,
    )


def select_best_card(page: Page) -> str:
    """Select the card whose discard leaves the least deadwood (by a click on its label, as a
    player taps it); its code."""
    picks = page.locator("#hand input[name=card]:not([disabled])")
    expect(picks.first).to_be_attached(timeout=TURN_MS)
    afters = [int(v) for v in picks.evaluate_all("els => els.map(e => e.dataset.after)")]
    best = picks.nth(afters.index(min(afters)))
    best.evaluate("e => e.closest('label').click()")
    return str(best.get_attribute("value"))


def hand_over(page: Page) -> None:
    """The move that gives the turn away: pass the upcard, or draw from the stock (if the turn
    starts there) and discard the card that leaves the least deadwood. Never a knock: the
    hand goes on for as many turns as a test wants."""
    actions = page.locator("#actions")
    if actions.locator("button[value=pass]").count():
        shown = version(page)
        actions.locator("button[value=pass]").click()
        wait_for_news(page, shown)
        return
    if actions.locator("button[value=draw_stock]").count():
        shown = version(page)
        actions.locator("button[value=draw_stock]").click()
        wait_for_news(page, shown)
    select_best_card(page)
    shown = version(page)
    actions.locator("button[value=discard]").click()
    wait_for_news(page, shown)


def my_move(page: Page) -> bool:
    """The page is waiting for its player: a move, the next hand, or Reveal."""
    return page.locator(MY_MOVE).count() > 0


def take_turns(pages: list[Page], hand_overs: int) -> None:
    """Whoever's move it is makes it, until the turn has been handed over ``hand_overs``
    times and has come back to someone; a hand that ends is followed by the next. One page
    may stand for both players of a shared screen (pass and play)."""
    done = 0
    while True:
        page = whose_move(pages)
        if page.locator("#pass-screen").count():
            page.locator("#pass-screen button").click()
            expect(page.locator("#pass-screen")).to_have_count(0, timeout=TURN_MS)
            expect(page.locator(ACTION).first).to_be_visible(timeout=TURN_MS)
            continue
        if page.locator("#actions button[value=next_hand]").count():
            shown = version(page)
            page.locator("#actions button[value=next_hand]").click()
            wait_for_news(page, shown)
            continue
        if done == hand_overs:
            return
        hand_over(page)
        done += 1


def whose_move(pages: list[Page]) -> Page:
    """The page whose player is to act (polling each in turn until one is)."""
    deadline = time.monotonic() + TURN_MS / 1000
    while time.monotonic() < deadline:
        for page in pages:
            if my_move(page):
                return page
        pages[0].wait_for_timeout(50)
    raise AssertionError("nobody's move: the table stopped")
