"""axe-core (through axe-playwright-python) on the home, lobby, table, result and settings
pages, at a phone's size (upright, and turned sideways with its full-screen button) and a
desktop's, in English and German: no serious or critical violation. Any one fails the test,
with axe's own description of it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.table_helpers import SIZES, sign_in, table_in

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Axe()


@pytest.fixture
def context(browser: Browser, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    size, locale = request.param
    # A phone turned sideways: a touch screen, which shows the full-screen button too.
    sideways = size in ("740x360", "844x390")
    context = browser.new_context(
        viewport=SIZES[size], locale=locale, has_touch=sideways, is_mobile=sideways
    )
    yield context
    context.close()


def serious(page: Page) -> list[str]:
    response = AXE.run(page).response
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(str(n["target"]) for n in v["nodes"][:5])
        for v in response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize(
    "context",
    [("360x740", "en-GB"), ("1280x800", "de-DE"), ("740x360", "de-DE")],
    indirect=True,
    ids=["phone-en", "desktop-de", "sideways-de"],
)
def test_no_serious_or_critical_violation(context: BrowserContext, base: str, alice: User):
    sign_in(context, base, alice)
    page = context.new_page()
    found: dict[str, list[str]] = {}
    playing = table_in(alice, "discard")
    pages = {"home": "/", "lobby": "/lobby/", "settings": "/settings/"}
    pages["table"] = f"/games/{playing.public_id}/"
    for name, path in pages.items():
        page.goto(base + path)
        found[name] = serious(page)
    finished = table_in(alice, "hand_over")
    page.goto(f"{base}/games/{finished.public_id}/")
    found["result"] = serious(page)
    assert not any(found.values()), found


def test_the_check_fails_on_a_violation(browser: Browser):
    """The check itself can fail: a nameless button and an image without text are found."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content('<html lang="en"><body><main><button></button><img src="x.png"></main>')
        found = serious(page)
        assert any(v.startswith("button-name") for v in found)
        assert any(v.startswith("image-alt") for v in found)
    finally:
        context.close()
