"""The pages around the table on a phone (issue 41, defect 10): "Play Bea now" in the first
screen of the home page on a phone turned sideways; the lobby's quick-pairing tiles told apart
on a phone; Settings' checkboxes large enough for a finger; the keyboard's focus ring on a card
thick enough to see. Screenshots go to test-artifacts/phone/."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext

from tests.browser.table_helpers import ARTIFACTS, SIZES
from tests.browser.test_table_layout import outside

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
