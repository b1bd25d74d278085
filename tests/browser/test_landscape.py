"""A phone turned sideways (issue 23), in real Chromium: full screen is offered on a phone (a
touch screen of a phone's size whose browser allows it), never on a desktop; the button puts
the table in full screen and takes it out again, and says which state it is in. (That the
playing surface fits sideways, with larger cards, is test_table_layout.py's.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.table_helpers import ARTIFACTS, SIZES, settle, sign_in, table_in
from tests.browser.test_table_layout import outside

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FULL = "document.fullscreenElement ? document.fullscreenElement.id : ''"


def test_a_phone_may_play_in_full_screen(browser: Browser, base: str, alice: User):
    phone = browser.new_context(viewport=SIZES["740x360"], has_touch=True, is_mobile=True)
    desktop = browser.new_context(viewport=SIZES["1280x800"])
    try:
        for context in (phone, desktop):
            sign_in(context, base, alice)
        match = table_in(alice, "discard")
        page = desktop.new_page()
        page.goto(f"{base}/games/{match.public_id}/")
        expect(page.locator("#sound-toggle")).to_be_visible()
        expect(page.locator("#fullscreen-toggle")).to_be_hidden()

        page = phone.new_page()
        page.goto(f"{base}/games/{match.public_id}/")
        toggle = page.locator("#fullscreen-toggle")
        expect(toggle).to_be_visible()
        expect(toggle).to_have_attribute("aria-pressed", "false")
        expect(toggle).to_have_text("Full screen")
        assert not outside(page, "#fullscreen-toggle")
        toggle.click()
        page.wait_for_function(f"({FULL}) === 'table'")
        expect(toggle).to_have_attribute("aria-pressed", "true")
        expect(toggle).to_have_text("Full screen")
        settle(page)
        # In full screen the playing surface still fits, without the site's header.
        for selector in ("#hand .hand-cards > li", "#actions .buttons button", "#pile .card"):
            assert not outside(page, selector), selector
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "table-full-screen-740x360.png"))
        toggle.click()
        page.wait_for_function(f"({FULL}) === ''")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        expect(toggle).to_have_text("Full screen")
    finally:
        phone.close()
        desktop.close()
