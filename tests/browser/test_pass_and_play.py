"""Pass and play in real Chromium: the pass screen and the revealed hand swap in place (axe
finds nothing serious in either), a hand leaves the page when the pass screen comes, and
without JavaScript every POST is followed by a redirect to the match's one address, whose
reload shows only the hand still to act."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE
from tests.browser.table_helpers import ARTIFACTS
from tests.browser.test_accessibility import serious
from tests.browser.turns import select_best_card

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOCAL = re.compile(r".*/games/local/[\w-]+/$")


def start(context: BrowserContext, base: str) -> Page:
    page = context.new_page()
    page.goto(base + "/games/local/")
    page.fill("input[name=first]", "Ann")
    page.fill("input[name=second]", "Ben")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(LOCAL)
    return page


def hand_codes(page: Page) -> list[str]:
    return page.locator("#hand li[data-code]").evaluate_all("els => els.map(e => e.dataset.code)")


def test_the_hand_leaves_the_page_when_the_pass_screen_comes(browser: Browser, base: str):
    context = browser.new_context(viewport=PHONE)
    try:
        page = start(context, base)
        address = page.url
        expect(page).to_have_title(re.compile("Pass the device to Ann"))
        expect(page.locator("#pass-screen button")).to_be_focused()
        page.locator("#pass-screen button").click()
        expect(page.locator("#hand li[data-code]")).to_have_count(10)
        expect(page).to_have_title(re.compile("Gin Rummy against Ben"))
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "live-pass-and-play-revealed-360x740.png"))
        assert serious(page) == []  # axe-core, on the table swapped in
        anns = hand_codes(page)
        page.locator("#actions button[value=pass]").click()
        expect(page.locator("#pass-screen")).to_be_visible()
        expect(page).to_have_title(re.compile("Pass the device to Ben"))
        # Nothing of Ann's hand is left in the page, not even out of sight.
        html = page.content()
        assert [code for code in anns if f'"{code}"' in html] == []
        expect(page.locator("[data-code]")).to_have_count(0)
        expect(page.locator("#pass-screen button")).to_be_focused()
        assert page.url == address
        page.screenshot(path=str(ARTIFACTS / "live-pass-and-play-pass-screen-360x740.png"))
        assert serious(page) == []
        # Back to the form and forward again: the address shows the pass screen, no hand.
        page.go_back()
        page.go_forward()
        expect(page.locator("#pass-screen")).to_contain_text("Pass the device to Ben")
        expect(page.locator("[data-code]")).to_have_count(0)
    finally:
        context.close()


def test_without_javascript_the_address_shows_only_the_hand_to_act(browser: Browser, base: str):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        page = start(context, base)
        address = page.url
        # The first hand waits for a seed, which a press of Deal sends without JavaScript.
        page.locator("#actions button[value=seed]").click()
        page.locator("#pass-screen button").click()
        expect(page.locator("#hand li[data-code]")).to_have_count(10)
        assert page.url == address
        anns = hand_codes(page)
        # A reload after Reveal is the same page, never a 405 of the POST's address.
        response = page.reload()
        assert response is not None and response.status == 200
        assert hand_codes(page) == anns
        page.locator("#actions button[value=pass]").click()
        expect(page.locator("#pass-screen")).to_contain_text("Pass the device to Ben")
        assert page.url == address
        page.reload()
        expect(page.locator("#pass-screen")).to_contain_text("Pass the device to Ben")
        expect(page.locator("[data-code]")).to_have_count(0)
        # Ben passes too; Ann draws and discards, her hand staying up through her turn.
        page.locator("#pass-screen button").click()
        page.locator("#actions button[value=pass]").click()
        page.locator("#pass-screen button").click()
        page.locator("#actions button[value=draw_stock]").click()
        expect(page.locator("#hand li[data-code]")).to_have_count(11)
        page.reload()
        expect(page.locator("#hand li[data-code]")).to_have_count(11)
        select_best_card(page)
        page.locator("#actions button[value=discard]").click()
        expect(page.locator("#pass-screen")).to_contain_text("Pass the device to Ben")
        assert page.url == address
    finally:
        context.close()
