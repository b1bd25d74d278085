"""The home page in real Chromium (issue 23): playing Bea comes first, on a phone in the first
screen; the other ways (a friend, pass and play, sign up, sign in) follow as a grid of equal
tiles with their labels centred, not as page-wide bars; Bea's owl is drawn, not an emoji that
shows as an empty box without an emoji font; each of Bea's levels is readable whole on a phone.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.table_helpers import ARTIFACTS, SIZES
from tests.browser.test_table_layout import outside

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TILES = {
    "en-GB": ("Play with a friend", "Pass and play", "Sign up", "Sign in"),
    "de-DE": ("Mit Freunden spielen", "Abwechselnd an einem Gerät", "Registrieren", "Anmelden"),
}
PLAY_BEA = {"en-GB": "Play Bea now", "de-DE": "Jetzt gegen Bea spielen"}


@pytest.fixture
def context(browser: Browser, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=SIZES["360x740"], locale=request.param)
    yield context
    context.close()


def _box(page: Page, name: str) -> dict[str, float]:
    box = page.locator("#main").get_by_role("link", name=name, exact=True).bounding_box()
    assert box is not None, name
    return box


@pytest.mark.parametrize("context", ["en-GB", "de-DE"], indirect=True)
def test_playing_bea_comes_first_and_the_rest_is_a_grid(context: BrowserContext, base: str):
    page = context.new_page()
    page.goto(base + "/")
    locale = "de-DE" if page.evaluate("document.documentElement.lang") == "de" else "en-GB"
    play = page.get_by_role("button", name=PLAY_BEA[locale], exact=True)
    ARTIFACTS.mkdir(exist_ok=True)
    for size in ("360x740", "1280x800"):
        page.set_viewport_size(SIZES[size])
        page.evaluate("window.scrollTo(0, 0)")
        main = page.locator("#main").bounding_box()
        start = play.bounding_box()
        assert main is not None and start is not None
        assert not outside(page, "button.play-as-guest"), size
        tiles = [_box(page, name) for name in TILES[locale]]
        for name, tile in zip(TILES[locale], tiles, strict=True):
            assert start["y"] < tile["y"], f"{size}: {name} above the main action"
            # A tile, not a bar across the page.
            assert tile["width"] < main["width"] * 0.6, f"{size}: {name} is {tile['width']} wide"
        # In pairs side by side, of one width, their labels centred.
        for first, second in ((tiles[0], tiles[1]), (tiles[2], tiles[3])):
            assert abs(first["y"] - second["y"]) < 1, size
            assert abs(first["width"] - second["width"]) < 1, size
        for name in TILES[locale]:
            link = page.locator("#main").get_by_role("link", name=name, exact=True)
            centred = link.evaluate(
                """e => { const r = document.createRange(); r.selectNodeContents(e);
                    const t = r.getBoundingClientRect(), b = e.getBoundingClientRect();
                    return Math.abs((t.left + t.right) / 2 - (b.left + b.right) / 2); }"""
            )
            assert centred < 2, f"{size}: {name}'s label is off centre by {centred}px"
        page.screenshot(path=str(ARTIFACTS / f"home-{locale}-{size}.png"), full_page=True)


@pytest.mark.parametrize("context", ["en-GB"], indirect=True)
def test_the_owl_is_drawn_and_every_level_reads_whole(context: BrowserContext, base: str):
    page = context.new_page()
    page.goto(base + "/")
    assert "🦉" not in page.content()
    owl = page.locator("#new-match h2 svg.owl")
    expect(owl).to_be_visible()
    box = owl.bounding_box()
    assert box is not None and box["width"] >= 24 and box["height"] >= 24
    page.locator(".guest-choices summary").click()
    levels = page.locator("input[name=level]")
    expect(levels).to_have_count(4)
    for label in (
        "Easy: plays what is in front of her",
        "Medium: watches what you pick up",
        "Hard: counts the cards",
        "Expert: her very best",
    ):
        choice = page.get_by_label(label, exact=True)
        expect(choice).to_be_attached()
        text = page.locator("label.choice", has_text=label)
        expect(text).to_be_visible()
        # Nothing of it is cut off: not wider than its box, not past the screen's edge.
        clipped = text.evaluate("e => e.scrollWidth > e.clientWidth")
        assert not clipped, label
        assert text.evaluate("e => e.getBoundingClientRect().right") <= 360, label
    expect(page.get_by_label("Medium: watches what you pick up", exact=True)).to_be_checked()
    page.screenshot(path=str(ARTIFACTS / "home-levels-360x740.png"), full_page=True)
