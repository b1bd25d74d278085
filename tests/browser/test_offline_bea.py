"""Bea offline in real Chromium (docs/offline.md): the server's own engine and AI run in the
browser under Pyodide, fetched only when the player first presses Play and then kept by the
service worker in a cache of its own, whose size is bounded; with the network cut, a whole
match is played; and the browser's engine and the server's agree on seeded matches. The
offline table is the online one: with the network cut a card is discarded by a double tap and
by a drag onto the pile and with the keyboard, the hand is dragged into a new order and sorted
by suit and by rank, the hint marks what Bea would do, a discarded card flies onto the pile with
its sound (once sound is switched on) and the turn's chime follows Bea's answer, and a gin is
celebrated, all without a page load. At every phone size, in English and German, each phase's
controls lie wholly in the window and every word of the status shows (screenshots in
test-artifacts/phone/)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from django.utils import translation
from playwright.sync_api import Browser, BrowserContext, Page, expect

from games import ai
from games.offline import views as offline_views
from games.offline.bundle import bundle
from games.offline.driver import PLAYER, Offline, self_play
from games.table import orders
from tests.browser.conftest import PHONE
from tests.browser.table_helpers import ARTIFACTS, SIZES, settle
from tests.browser.test_accessibility import serious
from tests.browser.test_gestures import double_tap, drag
from tests.browser.test_phone_table import PHONES, _in_every_size, _sized

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        offline_views.pyodide_version() is None,
        reason="Pyodide is not vendored: run scripts/vendor_pyodide.sh",
    ),
]

ENGINE_MS = 60_000  # Pyodide's first start: 13 MB to fetch and compile
WORKER_READY = "navigator.serviceWorker.ready.then(() => true)"
CONTROLLED = "!!navigator.serviceWorker.controller"
# The caches of Bea offline: each one's URLs and the bytes they hold.
BEA_CACHES = """async () => {
    const found = {};
    for (const name of await caches.keys()) {
        if (!name.startsWith("gin-offline-bea-")) continue;
        const cache = await caches.open(name);
        const entries = {};
        for (const request of await cache.keys()) {
            const response = await cache.match(request);
            entries[new URL(request.url).pathname] = (await response.arrayBuffer()).byteLength;
        }
        found[name] = entries;
    }
    return found;
}"""
SEEDS = ("1", "2", "sept")
SHOTS = ARTIFACTS / "offline"
# The player's turn, or the match over: Bea plays move by move after a pause.
YOUR_TURN = "!!document.querySelector('#status.your-turn, #after:not([hidden])')"
PHASE_READY = """() => !!document.querySelector(
    '#actions button[value=discard], #actions button[value=next_hand],'
    + ' #actions button[value=pass], #pile .stock button:enabled')"""
GIN_ANIMATIONS = """() => document.getAnimations()
    .map(a => a.animationName || '').filter(n => n.startsWith('gin-'))"""
CODES = "els => els.map(e => e.dataset.code)"
# Every animation the page starts, noted as it starts: the card it moves and where (the page
# redraws the table after each move, so the elements themselves do not last).
NOTE_FLIGHTS = """
    window.__flights = [];
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (keyframes, options) {
        const where = this.closest("#pile") ? "pile" : this.closest("#hand") ? "hand" : "";
        window.__flights.push(where + ":" + (this.dataset.code || ""));
        return animate.call(this, keyframes, options);
    };
"""
SELECT = "r => { r.checked = true; r.dispatchEvent(new Event('change', { bubbles: true })); }"


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    made = browser.new_context(viewport=PHONE)
    yield made
    made.close()


def _controlled(context: BrowserContext, base: str) -> Page:
    """The home page once, for the worker to install (it keeps Bea's pages), then hers."""
    page = context.new_page()
    page.goto(base + "/")
    assert page.evaluate(WORKER_READY)
    page.goto(base + "/offline/bea/en/")
    page.wait_for_function(CONTROLLED)
    return page


def _start(page: Page, target: str = "50") -> None:
    page.locator("select[name=target]").select_option(target)
    page.get_by_role("button", name="Play Bea offline").click()
    expect(page.locator("#table")).to_be_visible(timeout=ENGINE_MS)


def _my_turn(page: Page) -> None:
    page.wait_for_function(YOUR_TURN)


def _play_out(page: Page) -> str:
    """Press something legal until the match is over: a card and Discard in the discard
    phase, else the phase's first button (take, pass, draw, next hand). The closing status."""
    headline = page.locator("#offline-headline")
    for _press in range(2_000):
        _my_turn(page)
        text = headline.inner_text()
        if text in ("You won the match.", "Bea won the match."):
            return text
        card = page.locator("#hand input[name=card]:enabled")
        if card.count():
            # Selected as the keyboard does (two clicks on one spot within half a second
            # would be a double tap, and a turn can come round that fast here).
            card.first.evaluate(SELECT)
            page.locator("#actions button[value=discard]").click()
        else:
            page.locator("#actions button[name=move]:enabled").first.click()
    raise AssertionError("the match did not end in 2000 presses")


def _to_discard(page: Page) -> None:
    """On to the player's discard phase, drawing as a player does: a tap on the pile (the
    upcard) or on the stock, and Next hand when Bea's last move ended the hand (she may knock
    at any discard of hers)."""
    for _turn in range(10):
        _my_turn(page)
        # The status may say "your turn" a moment before the phase's controls are drawn (in
        # the upcard's phase the stock stays disabled: a press on it waited 30 s in CI).
        page.wait_for_function(PHASE_READY)
        if page.locator("#actions button[value=discard]").count():
            return
        if page.locator("#actions button[value=next_hand]").count():
            page.locator("#actions button[value=next_hand]").click()
        elif page.locator("#actions button[value=pass]").count():
            page.locator("#pile .discard button").click()
        else:
            page.locator("#pile .stock button").click()
    raise AssertionError("no discard phase in 10 turns")


def _hand(page: Page) -> list[str]:
    return page.locator("#hand .hand-cards > li").evaluate_all(CODES)


def _loads(page: Page) -> list[str]:
    """The page's navigations from now on (a table that plays like an app makes none)."""
    found: list[str] = []
    page.on(
        "framenavigated",
        lambda frame: found.append(frame.url) if frame == page.main_frame else None,
    )
    return found


def _gin_ready() -> dict[str, Any]:
    """A match as the browser saves it, at the player's discard with a gin in hand: seed
    ``gin-9``, the player playing as the hint does, by the driver itself, server side."""
    match = Offline("standard", 100, "easy", "gin-9")
    for _turn in range(100):
        match.bea_plays()
        view = match.view()
        if any(a["type"] == "gin" for a in view["legal_actions"]):
            return {"saved": match.saved(), "over": False}
        match._apply(PLAYER, ai.choose(view, "expert"))
    raise AssertionError("no gin from seed gin-9")


@pytest.mark.timeout(300)
def test_a_whole_match_against_bea_offline_with_the_network_cut(
    context: BrowserContext, base: str
) -> None:
    page = _controlled(context, base)
    expect(page.locator("#offline-label")).to_contain_text("not on the server")
    # Nothing of Pyodide is fetched or kept before the player chooses to play.
    assert page.evaluate(BEA_CACHES) == {}
    _start(page)  # online, the first time: Pyodide comes and is kept
    kept = page.evaluate(BEA_CACHES)
    [(name, entries)] = kept.items()
    assert name == f"gin-offline-bea-{offline_views.pyodide_version()}"
    assert set(entries) == {*offline_views.pyodide_urls(), "/offline/bea/code.json"}
    size = sum(entries.values())
    assert size < 15_000_000, f"Bea offline keeps {size} bytes"

    context.set_offline(True)
    page.emulate_media(reduced_motion="reduce")  # Bea's moves without a pause: a quicker match
    page.reload()  # the page itself from the worker's cache
    expect(page.locator("h1")).to_have_text("Bea offline")
    loads = _loads(page)
    _start(page)  # a new match, from the start, with no network
    expect(page.locator("#status .offline-badge")).to_have_text("Offline · unrated")
    SHOTS.mkdir(parents=True, exist_ok=True)
    _my_turn(page)
    settle(page)
    page.screenshot(path=str(SHOTS / "start-en-360x740.png"), full_page=True)
    assert serious(page) == []  # axe, offline too (axe-core is injected, not fetched)
    closing = _play_out(page)
    assert closing in ("You won the match.", "Bea won the match.")
    expect(page.locator("#offline-target")).to_have_text("50")
    # The last hand laid open: its kind and who scored what; then a new match is offered.
    expect(page.locator("#offline-last-hand")).to_contain_text(re.compile(r"^Hand \d+: "))
    expect(page.locator("#after button")).to_be_visible()
    page.screenshot(path=str(SHOTS / "match-over-en-360x740.png"), full_page=True)
    assert loads == [], f"the offline table loaded {len(loads)} times"
    # Saved in the browser, and the worker's cache is still just those files.
    assert page.evaluate("JSON.parse(localStorage.getItem('gin-offline-bea')).over") is True
    assert page.evaluate(BEA_CACHES) == kept
    # Once kept, the offline page of any address offers her.
    page.goto(base + "/lobby/")
    expect(page.locator("h1")).to_have_text("You are offline")
    expect(page.locator("#offline-bea-link")).to_be_visible()
    expect(page.locator("#offline-bea-not-kept")).to_be_hidden()
    print(f"\nBea offline's cache: {size} bytes in {len(entries)} files")


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Bea offline is not on this device yet: the first time, she needs a connection."),
        ("de", "Bea offline ist noch nicht auf diesem Gerät: Beim ersten Mal braucht sie eine"),
    ],
)
def test_play_with_no_network_before_bea_was_ever_kept_says_what_to_do(
    context: BrowserContext, base: str, lang: str, said: str
) -> None:
    page = _controlled(context, base)
    page.goto(f"{base}/offline/bea/{lang}/")
    context.set_offline(True)
    page.reload()  # her page from the worker's cache; Pyodide was never fetched
    page.locator("#offline-play").click()
    expect(page.locator("#offline-status")).to_contain_text(said, timeout=ENGINE_MS)
    expect(page.locator("#table")).to_be_hidden()
    # Nothing half-kept (the worker opened her cache when the page asked for Pyodide).
    assert all(entries == {} for entries in page.evaluate(BEA_CACHES).values())


@pytest.mark.timeout(300)
def test_the_browsers_engine_and_the_servers_agree_on_seeded_matches(
    context: BrowserContext, base: str
) -> None:
    page = _controlled(context, base)
    _start(page)
    assert page.evaluate("window.ginOffline.version") == bundle()["version"]
    context.set_offline(True)
    for seed in SEEDS:
        for level in ("easy", "expert"):
            browser_side = page.evaluate(
                "([seed, level]) => window.ginOffline.selfPlay('standard', 100, level, seed)",
                [seed, level],
            )
            server_side = self_play("standard", 100, level, seed)
            assert browser_side == server_side, (seed, level)
            assert browser_side["phase"] == "match_over"


@pytest.mark.timeout(300)
def test_the_hint_offline_reads_like_the_hint_online_in_german(
    context: BrowserContext, base: str
) -> None:
    page = _controlled(context, base)
    page.goto(base + "/offline/bea/de/")
    page.locator("select[name=target]").select_option("50")
    page.get_by_role("button", name="Offline gegen Bea spielen").click()
    expect(page.locator("#table")).to_be_visible(timeout=ENGINE_MS)
    _my_turn(page)
    expect(page.locator("#offline-headline")).to_contain_text("Du bist dran")
    page.get_by_role("button", name="Tipp").click()
    hint = page.locator("#offline-hint-text")
    expect(hint).not_to_be_empty()
    # Bea's reasons come from the site's German catalog: no English word of them is left.
    text = hint.inner_text()
    assert not re.search(r"\b(take|pass|keeps|does not fit|your hand)\b", text), text
    SHOTS.mkdir(parents=True, exist_ok=True)
    settle(page)
    page.screenshot(path=str(SHOTS / "hint-de-360x740.png"))


@pytest.mark.timeout(300)
@pytest.mark.parametrize("touch", [False, True], ids=["mouse", "touch"])
def test_the_offline_table_plays_like_the_online_one_with_the_network_cut(
    browser: Browser, base: str, touch: bool
) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=touch)
    context.add_init_script(NOTE_FLIGHTS)
    try:
        _plays_like_the_online_table(context, base, touch)
    finally:
        context.close()


def _plays_like_the_online_table(context: BrowserContext, base: str, touch: bool) -> None:
    way = "touch" if touch else "mouse"
    page = _controlled(context, base)
    _start(page)  # online once: Pyodide comes and is kept
    context.set_offline(True)
    page.reload()
    loads = _loads(page)
    # To 250: no hand of the few played here can end the match (Bea may knock at any discard
    # of hers; at 50 a knock of hers may end it, and then the turn's chime never comes: CI once
    # waited 30 s for it here).
    _start(page, "250")
    SHOTS.mkdir(parents=True, exist_ok=True)
    _to_discard(page)
    settle(page)
    page.screenshot(path=str(SHOTS / f"discard-{way}-en-360x740.png"))

    # Sort by suit, by rank, melds first: the online table's cycle and orders (orders.py).
    cards = _hand(page)
    sort = page.locator("#hand button.sort")
    expect(sort).to_have_text("Sort: by suit")
    sort.click()
    expect(sort).to_have_text("Sort: by rank")
    assert _hand(page) == sorted(cards, key=orders.by_suit)
    sort.click()
    expect(sort).to_have_text("Sort: melds first")
    assert _hand(page) == sorted(cards, key=orders.by_rank)
    page.screenshot(path=str(SHOTS / f"sorted-by-rank-{way}-en-360x740.png"))

    # The hint: what Bea would do, in words, and marked on the table.
    page.locator("#offline-hint").click()
    expect(page.locator("#hint")).to_contain_text("Bea would:")
    expect(page.locator("#offline-hint-text")).not_to_be_empty()
    expect(page.locator("#table .hinted").first).to_be_visible()
    page.screenshot(path=str(SHOTS / f"hint-{way}-en-360x740.png"))

    # Sound on, as online (the same switch, kept in the browser).
    toggle = page.locator("#sound-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.evaluate("window.ginSound.played.length = 0")  # the switch played a sample

    # A double tap on a card discards it: it flies onto the pile with its sound, and Bea
    # answers; the chime says the turn is the player's again.
    gone = page.locator("#hand input[name=card]:enabled").last.get_attribute("value")
    page.evaluate("window.__flights.length = 0")
    double_tap(page.locator(f'#hand li[data-code="{gone}"] .card'), touch)
    expect(page.locator(f'#hand li[data-code="{gone}"]')).to_have_count(0)
    expect(page.locator("#hand li[data-code]")).to_have_count(10)
    expect(page.locator("#offline-log li").first).to_contain_text("Bea: ")
    page.wait_for_function("window.ginSound.played.includes('turn')")
    assert page.evaluate("window.ginSound.played")[0] == "discard"
    assert f"pile:{gone}" in page.evaluate("window.__flights"), "the discard did not fly"

    # Dragged within the hand: a new order, kept in the browser with the match.
    _to_discard(page)
    order = _hand(page)
    drag(page, page.locator("#hand li").first, page.locator("#hand li").last, touch)
    page.wait_for_function(f"document.querySelector('#hand li').dataset.code !== '{order[0]}'")
    arranged = _hand(page)
    assert arranged != order and sorted(arranged) == sorted(order)
    saved = page.evaluate("JSON.parse(localStorage.getItem('gin-offline-bea')).saved.order")
    assert saved["cards"] == arranged

    # Dragged onto the pile: discarded.
    dropped = page.locator("#hand input[name=card]:enabled").first.get_attribute("value")
    over_pile = page.locator("#pile .discard .card")
    drag(page, page.locator(f'#hand li[data-code="{dropped}"]'), over_pile, touch)
    expect(page.locator(f'#hand li[data-code="{dropped}"]')).to_have_count(0)
    expect(page.locator("#hand li[data-code]")).to_have_count(10)

    # The keyboard: Enter selects the focused card, D discards it.
    _to_discard(page)
    focused = page.locator("#hand input[name=card]:enabled").first
    keyed = focused.get_attribute("value")
    focused.focus()
    page.keyboard.press("Enter")
    expect(focused).to_be_checked()
    page.keyboard.press("d")
    expect(page.locator(f'#hand li[data-code="{keyed}"]')).to_have_count(0)
    assert loads == [], f"the offline table loaded {len(loads)} times"


@pytest.mark.timeout(300)
def test_a_gin_offline_is_celebrated_as_online(context: BrowserContext, base: str) -> None:
    page = _controlled(context, base)
    _start(page)  # online once: Pyodide comes and is kept
    context.set_offline(True)
    page.evaluate(
        "saved => { localStorage.setItem('gin-offline-bea', JSON.stringify(saved));"
        " localStorage.setItem('lobby.sound', 'on'); }",
        _gin_ready(),
    )
    page.reload()
    loads = _loads(page)
    page.get_by_role("button", name="Continue the saved match").click()
    gin = page.locator("#actions button[value=gin]")
    expect(gin).to_be_visible(timeout=ENGINE_MS)
    card = page.locator("#hand input[data-gin]").first.get_attribute("value")
    page.locator(f'#hand li[data-code="{card}"] label').click()
    page.evaluate("window.ginSound.played.length = 0")
    gin.click()
    banner = page.locator("#result .celebration")
    expect(banner).to_have_text("Gin!")
    expect(banner).to_have_class("celebration gin")
    assert "gin-pop" in page.evaluate(GIN_ANIMATIONS)
    page.wait_for_function("window.ginSound.played.includes('gin')")
    expect(page.locator("#offline-last-hand")).to_contain_text("You score")
    SHOTS.mkdir(parents=True, exist_ok=True)
    settle(page)
    page.screenshot(path=str(SHOTS / "gin-en-360x740.png"))
    assert loads == [], f"the offline table loaded {len(loads)} times"


# --- Every phone size: the offline table's controls in the window, in both languages --------

# What each phase of the offline table needs a finger for, and what it must read.
OFFLINE_CONTROLS = {
    "upcard": [
        "#status .headline",
        "#scores",
        "#opponent .backs",
        "#pile .discard .card-button",
        "#actions button[value=take_upcard]",
        "#actions button[value=pass]",
        "#hand .hand-cards > li",
        "#hand button.sort",
    ],
    "draw": [
        "#status .headline",
        "#scores",
        "#opponent .backs",
        "#pile .stock .card-button",
        "#actions button[value=draw_stock]",
        "#hand .hand-cards > li",
    ],
    "discard": [
        "#status .headline",
        "#scores",
        "#pile .discard .card",
        "#actions button[value=discard]",
        "#actions button[value=knock]",
        "#actions #offline-hint",
        "#hand .hand-cards > li",
    ],
    "hand_over": [
        "#status .headline",
        "#scores",
        "#result .celebration",
        "#actions button[value=next_hand]",
    ],
}
# Its status line in each phase (static/js/offline-bea.js), a message of the catalogue.
OFFLINE_HEADLINES = {
    "upcard": "Your turn: take the upcard or pass.",
    # (after both passed the upcard: from the stock only)
    "draw": "Your turn: draw from the stock.",
    "discard": "Your turn: discard a card (press it), or knock.",
    "hand_over": "The hand is over. Press Next hand.",
}


def _saved_at_start(seed: str) -> dict[str, Any]:
    """A fresh match as the browser saves it, seeded: the player is offered the upcard, and
    after a pass Bea passes too (so the player's draw is from the stock), checked here."""
    match = Offline("standard", 100, "easy", seed)
    assert match.view()["phase"] == "upcard_offer"
    after = Offline.restore(match.saved())
    after.play({"type": "pass"})
    assert after.view()["phase"] == "draw" and after.view()["to_act"] == PLAYER
    return {"saved": match.saved(), "over": False}


def _continue(page: Page, saved: dict[str, Any]) -> None:
    """``saved`` as the browser's saved match, the page loaded again (from the worker: the
    network is cut) and the match continued."""
    page.evaluate("saved => localStorage.setItem('gin-offline-bea', JSON.stringify(saved))", saved)
    page.reload()
    page.locator("#offline-continue").click()
    expect(page.locator("#table")).to_be_visible(timeout=ENGINE_MS)
    _my_turn(page)
    page.wait_for_function(PHASE_READY)


def _offline_phase(page: Page, lang: str, phase: str) -> list[str]:
    """The phase's status line in the page's language, and the controls of the phase not
    wholly in the window at each phone size (a screenshot of each)."""
    with translation.override(lang):
        expect(page.locator("#offline-headline")).to_have_text(
            translation.gettext(OFFLINE_HEADLINES[phase])
        )
    problems = _in_every_size(page, f"offline-{lang}", phase, OFFLINE_CONTROLS[phase])
    # ... and all the status's words show at each size, none scrolled out of its box (it
    # says what to do, and that the match is unrated and kept in this browser only).
    for size in PHONES:
        _sized(page, size)
        hidden = page.locator("#status").evaluate("e => e.scrollHeight - e.clientHeight")
        if hidden > 1:
            problems.append(f"offline-{lang} {size} {phase}: the status hides {hidden}px")
    _sized(page, PHONES[0])
    return problems


@pytest.mark.timeout(300)
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_every_control_of_the_offline_table_is_in_the_window_at_every_phone_size(
    browser: Browser, base: str, locale: str
) -> None:
    """The upcard, a draw, a discard and the end of a hand (a gin), each turned through the
    four phone sizes, with the network cut and no page load but the two that hand the
    browser a saved match."""
    lang = locale.split("-")[0]
    context = browser.new_context(viewport=SIZES[PHONES[0]], locale=locale)
    try:
        page = _controlled(context, base)
        page.goto(f"{base}/offline/bea/{lang}/")
        page.locator("#offline-play").click()  # online once: Pyodide comes and is kept
        expect(page.locator("#table")).to_be_visible(timeout=ENGINE_MS)
        context.set_offline(True)
        page.emulate_media(reduced_motion="reduce")  # Bea's moves without a pause

        _continue(page, _saved_at_start("phone-1"))
        loads = _loads(page)
        problems = _offline_phase(page, lang, "upcard")
        page.locator("#actions button[value=pass]").click()
        expect(page.locator("#actions button[value=draw_stock]")).to_be_visible()
        problems += _offline_phase(page, lang, "draw")
        page.locator("#pile .stock .card-button").click()
        expect(page.locator("#actions button[value=discard]")).to_be_visible()
        problems += _offline_phase(page, lang, "discard")
        assert loads == [], f"the offline table loaded {len(loads)} times"

        _continue(page, _gin_ready())
        loads = _loads(page)
        card = page.locator("#hand input[data-gin]").first.get_attribute("value")
        page.locator(f'#hand li[data-code="{card}"] label').click()
        page.locator("#actions button[value=gin]").click()
        expect(page.locator("#actions button[value=next_hand]")).to_be_visible()
        problems += _offline_phase(page, lang, "hand_over")
        assert loads == [], f"the offline table loaded {len(loads)} times"
        assert not problems, "\n".join(problems)
    finally:
        context.close()
