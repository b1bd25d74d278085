"""A whole hand against Bea in real Chromium: sign up, start, play by clicking, reload, result."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from ginclient.verify import check

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
PASSWORD = "a long pass phrase for dora"
# Bea pauses about a second per action; a hand is at most ~16 turns each.
TURN_TIMEOUT_MS = 20_000


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    yield page
    context.close()


def _shoot(page: Page, name: str) -> None:
    """Save a phone-sized and a desktop-sized screenshot of the page as it is."""
    ARTIFACTS.mkdir(exist_ok=True)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{label}.png"), full_page=True)
        if label == "phone":
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(PHONE)


def _sign_up(page: Page, base: str) -> None:
    page.goto(base + "/accounts/signup/")
    page.fill("input[name=username]", "dora")
    if page.locator("input[name=display_name]").count():
        page.fill("input[name=display_name]", "Dora")
    page.fill("input[name=email]", "dora@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("form button[type=submit], form input[type=submit]").last.click()
    page.wait_for_url(base + "/")


def _state(page: Page) -> dict[str, str]:
    """What a player sees of the position: the hand, the pile's top, the stock, the scores."""
    return {
        "hand": page.locator("#hand").inner_text(),
        "pile": page.locator("#pile .discard").inner_text(),
        "stock": page.locator("#pile .stock").inner_text(),
        "scores": page.locator("#scores").inner_text(),
        "status": page.locator("#status .headline").inner_text(),
    }


def _wait_for_my_move(page: Page) -> str:
    """Wait until Bea is done and return the headline: my turn, or the hand is over."""
    headline = page.locator("#status .headline")
    expect(headline).to_have_text(
        re.compile(r"^(Your turn|Hand \d+ is over|You won|Bea won)"), timeout=TURN_TIMEOUT_MS
    )
    return headline.inner_text()


def _play_one_move(page: Page, headline: str) -> None:
    actions = page.locator("#actions")
    if "take the upcard" in headline:
        actions.get_by_role("button", name="Pass").click()
    elif "draw" in headline:
        page.get_by_role("button", name="Draw from the stock").first.click()
        expect(page.locator("#hand input[name=card]").first).to_be_attached()
    else:
        # The card whose discard leaves the least deadwood: the highest deadwood card.
        picks = page.locator("#hand input[name=card]:not([disabled])")
        afters = [int(v) for v in picks.evaluate_all("els => els.map(e => e.dataset.after)")]
        best = picks.nth(afters.index(min(afters)))
        best.evaluate("e => e.closest('label').click()")
        expect(page.locator("#actions .selection")).to_contain_text("Discard")
        knock = actions.locator("button[value=knock]")
        gin = actions.locator("button[value=gin]")
        if gin.count() and gin.is_enabled():
            gin.click()
        elif knock.is_enabled():
            knock.click()
        else:
            actions.locator("button[value=discard]").click()
    # The move's answer swaps the status region: wait until it is no longer this headline
    # (or the page has moved on to Bea).
    expect(page.locator("#status .headline")).not_to_have_text(headline, timeout=TURN_TIMEOUT_MS)


@pytest.mark.timeout(600)
def test_it_plays_a_whole_hand_against_bea(base: str, page: Page) -> None:
    # The ASGI server (base): Bea's moves reach the page over its socket. (Under a WSGI
    # server they only ever came with the page reloading itself every turn, issue 23.)
    _sign_up(page, base)

    page.get_by_label("Play to").select_option("50")
    page.get_by_label("Easy: plays what is in front of her").check()
    with page.expect_response(
        lambda r: re.search(r"/games/[^/]+/$", r.url) is not None and r.request.method == "GET"
    ) as first_page:
        page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(base + "/games/*/")
    page.wait_for_function("window.htmx !== undefined")
    table_url = page.url
    # The table came with the commitment, before any card or seed: the page then sent its
    # own seed at once, and the hand was dealt (docs/fairness.md).
    shown = first_page.value.text()
    assert "Shuffling: sending your seed…" in shown and 'value="seed"' in shown
    committed = re.search(r'<abbr title="([0-9a-f]{64})">', shown)
    assert committed, "the first page shows the commitment"

    reloaded = False
    moves = 0
    while True:
        headline = _wait_for_my_move(page)
        if not headline.startswith("Your turn"):
            break
        if not reloaded and "discard" in headline and moves >= 4:
            # Mid-hand: a reload (or another device) shows exactly the same position.
            before = _state(page)
            _shoot(page, "hand-in-progress")
            page.reload()
            assert _state(page) == before
            assert page.url == table_url
            reloaded = True
        _play_one_move(page, headline)
        moves += 1
        assert moves < 80, "the hand should have ended by now"

    result = page.locator("#result")
    expect(result).to_contain_text("Hand 1:")
    expect(result.locator(".side")).to_have_count(2)
    expect(page.locator("#result .deadwood").first).to_be_visible()
    assert reloaded or moves < 6  # a very short hand may end before the mid-hand reload
    _shoot(page, "hand-result")
    if headline.startswith("Hand"):
        page.get_by_role("button", name="Next hand").click()
        expect(page.locator("#scores")).to_contain_text("2")
        expect(page.locator("#status .headline")).not_to_have_text(headline)

    # That hand's deal, checked in this browser (docs/fairness.md): it came from the server
    # seed and a random seed of dora's page (Bea sends none); the replay reveals both, and
    # the check recomputes the deal and every stock draw.
    page.goto(table_url + "replay/1/")
    verify = page.locator("#verify")
    expect(verify.locator("dd").nth(0)).to_have_text(committed.group(1))
    expect(verify.locator("dd").nth(2)).to_have_text(re.compile(r"^[0-9a-f]{32}$"))
    expect(verify.locator("dd").nth(3)).to_have_text("none")
    page.get_by_role("button", name="Verify this shuffle").click()
    expect(page.locator("#verify-result")).to_have_text(re.compile(r"^Verified: the deal"))
    # ginclient's check agrees with the browser's, on this hand and on tampered copies of it.
    replay = json.loads(page.locator("#shuffle-data").text_content() or "")
    assert replay["shuffle"]["seeds"][0] == verify.locator("dd").nth(2).inner_text()
    assert check(replay).ok
    tampered = page.evaluate(
        """async () => {
            const read = () => JSON.parse(document.getElementById("shuffle-data").textContent);
            const seed = read(); seed.shuffle.server_seed = "0".repeat(64);
            const upcard = read(); upcard.moves[0].discard_pile = ["XX"];
            const mine = read(); mine.shuffle.seeds[0] = "someone-elses";
            const copies = [seed, upcard, mine];
            const verdicts = [];
            for (const copy of copies) verdicts.push(await window.ginVerify.check(copy));
            return {copies, verdicts};
        }"""
    )
    assert tampered["verdicts"][0] == ["the server seed does not match the commitment"]
    assert tampered["verdicts"][1] == ["the upcard is not the committed one"]
    # dora's seed changes both hands, and the upcard unless the new shuffle turns up the same
    # card by chance (about one deal in 32).
    assert tampered["verdicts"][2][0] == "the hands dealt are not the committed ones"
    assert tampered["verdicts"][2][1:] in ([], ["the upcard is not the committed one"])
    for copy in tampered["copies"]:
        assert not check(copy).ok
