"""Back after signing out on a shared device (issue 39, finding 7): the pages of the player who
signed out are not shown again from the browser's history or its cache, since every answer
that depends on who asks is ``Cache-Control: no-store`` (ginsite/private_answers.py)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.browser.table_helpers import off_thread
from tests.games.conftest import ALICE_KNOCKS, BEA_LOOSE, stacked
from tests.games.live_helpers import lobby_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = "#hand li[data-code]"
SIGN_OUT = "form[action='/accounts/logout/'] button"


def test_back_after_sign_out_shows_none_of_the_previous_players_pages(
    browser: Browser, base: str, alice: User, bob: User, password: str
) -> None:
    match = off_thread(lobby_match, alice, bob, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC"))
    # Chromium as people run it: Playwright turns the back/forward cache off by default
    # (so that every Back reaches the network), which would hide what this test is about.
    chromium = browser.browser_type.launch(
        executable_path=str(CHROMIUM),
        args=CHROMIUM_ARGS,
        ignore_default_args=["--disable-back-forward-cache"],
    )
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(base + "/accounts/login/")
        page.fill("input[name=login]", "alice")
        page.fill("input[name=password]", password)
        page.locator("form button[type=submit]").last.click()
        page.wait_for_url(base + "/")

        page.goto(f"{base}/games/{match.public_id}/")
        expect(page.locator(HAND)).to_have_count(10)
        page.goto(base + "/settings/")
        expect(page.locator("#notifications")).to_be_visible()
        page.locator(SIGN_OUT).first.click()
        page.wait_for_url(base + "/")
        expect(page.locator(SIGN_OUT)).to_have_count(0)

        # The next person at the device presses Back: Settings, then alice's table. Each is
        # asked of the server again (a page from the back/forward cache fires no load event,
        # so only the navigation's commit is waited for), which sends a stranger to sign in.
        for shown in ("/settings/", f"/games/{match.public_id}/"):
            page.go_back(wait_until="commit")
            expect(page).to_have_url(re.compile(r"/accounts/login/\?next=" + re.escape(shown)))
            expect(page.locator("input[name=login]")).to_be_visible()
            expect(page.locator(SIGN_OUT)).to_have_count(0)
            expect(page.locator("#notifications")).to_have_count(0)
            expect(page.locator(HAND)).to_have_count(0)
    finally:
        context.close()
        chromium.close()
