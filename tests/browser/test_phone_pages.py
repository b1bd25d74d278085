"""The pages around the table on a phone (issue 41, defect 10): "Play Bea now" in the first
screen of the home page on a phone turned sideways; the lobby's quick-pairing tiles told apart
on a phone; Settings' checkboxes large enough for a finger; the keyboard's focus ring on a card
thick enough to see. Screenshots go to test-artifacts/phone/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, BrowserContext

from tests.browser.table_helpers import ARTIFACTS, SIZES, sign_in, table_in
from tests.browser.test_table_layout import outside

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "phone"
SIDEWAYS = ("740x360", "844x390")


@pytest.fixture
def context(browser: Browser, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    size, locale = request.param
    context = browser.new_context(viewport=SIZES[size], locale=locale)
    yield context
    context.close()


@pytest.mark.parametrize(
    "context",
    [(size, locale) for size in SIDEWAYS for locale in ("en-GB", "de-DE")],
    indirect=True,
    ids=[f"{size}-{locale}" for size in SIDEWAYS for locale in ("en-GB", "de-DE")],
)
def test_play_bea_now_is_in_the_first_screen_of_a_sideways_phone(
    context: BrowserContext, base: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = context.new_page()
    page.goto(base + "/")
    size = f"{page.viewport_size['width']}x{page.viewport_size['height']}"
    lang = page.evaluate("document.documentElement.lang")
    page.screenshot(path=str(SHOTS / f"home-{lang}-{size}.png"))
    assert page.locator("button.play-as-guest").count() == 1
    assert not outside(page, "button.play-as-guest")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


@pytest.mark.parametrize(
    "context", [("360x740", "en-GB"), ("360x740", "de-DE")], indirect=True, ids=["en", "de"]
)
def test_the_phone_lobby_names_each_row_of_rules_and_marks_the_usual_choice(
    context: BrowserContext, base: str, alice: User
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    sign_in(context, base, alice)
    page = context.new_page()
    page.goto(base + "/lobby/")
    pool = page.locator("#lobby-pool")
    rows = pool.locator(".tile-row")
    assert rows.count() == 3
    lang = page.evaluate("document.documentElement.lang")
    page.screenshot(path=str(SHOTS / f"lobby-{lang}-360x740.png"), full_page=True)
    # The lobby's socket swaps its regions in once it connects (and again when the lobby
    # changes): measure every row in one go, once each tile and each row's name is laid out
    # (a row read in the middle of a swap had no name yet: CI's two runs at once), so that no
    # swap falls between two measurements. The tiles' colours are read in the same go.
    layout = page.wait_for_function(
        """() => {
            const rows = [...document.querySelectorAll('#lobby-pool .tile-row')];
            const boxes = rows.map(row => [...row.querySelectorAll('button.tile')]
                .slice(0, 4).map(b => b.getBoundingClientRect().toJSON()));
            const names = rows.map(r => r.querySelector('.tile-rules')?.innerText.trim());
            const tiles = [...document.querySelectorAll('#lobby-pool button.tile')];
            const backgrounds = tiles.map(t => getComputedStyle(t).backgroundColor);
            const filled = tiles.filter(t => !t.classList.contains('secondary')).length;
            const laid = rows.length === 3 && names.every(Boolean) && boxes.every(
                row => row.length === 4 && row.every(b => b.width > 0)) &&
                backgrounds.every(Boolean);
            return laid && {boxes, names, backgrounds, filled,
                            tops: rows.map(r => r.getBoundingClientRect().y)};
        }"""
    ).json_value()
    for boxes, name in zip(layout["boxes"], layout["names"], strict=True):
        # A row: the rules' name, then its four targets side by side.
        assert len({round(b["y"]) for b in boxes}) == 1, boxes
        # Big enough for a thumb, and the label on one line.
        assert all(b["width"] >= 44 and b["height"] <= 56 for b in boxes), boxes
        assert name
    # The rows one under another.
    tops = layout["tops"]
    assert tops == sorted(tops) and len(set(tops)) == 3, tops
    # One tile stands out: the usual choice, filled; the rest are plain.
    # (Read with the layout: a tile read after a swap has left the page has no style at all,
    # as CI saw once.)
    assert layout["filled"] == 1
    assert len(set(layout["backgrounds"])) == 2, layout["backgrounds"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


@pytest.mark.parametrize("context", [("360x740", "en-GB")], indirect=True, ids=["en"])
def test_settings_checkboxes_are_big_enough_for_a_finger(
    context: BrowserContext, base: str, alice: User
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    sign_in(context, base, alice)
    page = context.new_page()
    page.goto(base + "/settings/")
    page.screenshot(path=str(SHOTS / "settings-360x740.png"))
    boxes = page.locator("#profile-settings input[type=checkbox]")
    assert boxes.count() >= 3
    for i in range(boxes.count()):
        box = boxes.nth(i).bounding_box()
        assert box is not None and box["width"] >= 20 and box["height"] >= 20, box
        # Its label is a target as tall as a finger, and pressing it ticks the box.
        label = page.locator(f"label[for='{boxes.nth(i).get_attribute('id')}']")
        tall = label.bounding_box()
        assert tall is not None and tall["height"] >= 40, tall
    before = boxes.first.is_checked()
    page.locator(f"label[for='{boxes.first.get_attribute('id')}']").click()
    assert boxes.first.is_checked() is not before


@pytest.mark.parametrize("context", [("360x740", "en-GB")], indirect=True, ids=["en"])
def test_the_keyboard_focus_on_a_card_is_a_thick_ring(
    context: BrowserContext, base: str, alice: User
) -> None:
    sign_in(context, base, alice)
    match = table_in(alice, "discard")
    page = context.new_page()
    page.goto(f"{base}/games/{match.public_id}/")
    page.keyboard.press("Tab")  # the page is used with the keyboard: focus rings show
    card = page.locator("#hand input[name=card]:not([disabled])").first
    card.focus()
    assert card.evaluate("e => e.matches(':focus-visible')")
    ring = card.evaluate(
        """e => { const s = getComputedStyle(e.nextElementSibling);
            return [parseFloat(s.outlineWidth), s.outlineStyle, s.boxShadow]; }"""
    )
    assert ring[0] >= 4 and ring[1] == "solid", ring
    assert "8px" in ring[2], ring  # the dark edge around the white ring
    page.screenshot(path=str(SHOTS / "card-focus-360x740.png"))
