"""The finish (issue 41): a player's gin is celebrated at the table, a banner that pops in with
a burst of gold, and a fanfare when sound is on; still for a reader who asks for reduced
motion. The results card at the end reads well on a phone, for anyone with its link."""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.table_helpers import ARTIFACTS, SIZES, off_thread, settle, sign_in
from tests.browser.test_accessibility import serious
from tests.browser.test_table_layout import outside
from tests.games.conftest import ALICE_KNOCKS, BEA_LOOSE, stacked, start

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "phone"
GIN_ANIMATIONS = """() => document.getAnimations()
    .map(a => a.animationName || '').filter(n => n.startsWith('gin-'))"""


def _go_gin(browser: Browser, base: str, alice: User, **options: object) -> Page:
    """Alice takes 10♣ and goes gin throwing K♦, with sound on."""
    context = browser.new_context(viewport=SIZES["360x740"], **options)
    context.add_init_script("localStorage.setItem('lobby.sound', 'on')")
    sign_in(context, base, alice)
    match = off_thread(lambda: start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "TC", "2D")))
    page = context.new_page()
    page.goto(f"{base}/games/{match.public_id}/")
    page.locator("#actions button[value=take_upcard]").click()
    expect(page.locator("#actions button[value=gin]")).to_be_visible(timeout=15_000)
    page.locator("#hand .slot[data-code=KD] label").click()
    page.evaluate("window.ginSound.played.length = 0")
    page.locator("#actions button[value=gin]").click()
    return page


def test_my_gin_pops_a_banner_and_plays_a_fanfare(browser: Browser, base: str, alice: User):
    page = _go_gin(browser, base, alice)
    try:
        banner = page.locator("#result .celebration")
        expect(banner).to_have_text("Gin!", timeout=15_000)
        expect(banner).to_have_class("celebration gin")
        assert "gin-pop" in page.evaluate(GIN_ANIMATIONS)
        page.wait_for_function("window.ginSound.played.includes('gin')")
        assert "knock" not in page.evaluate("window.ginSound.played")
        SHOTS.mkdir(parents=True, exist_ok=True)
        settle(page)
        page.screenshot(path=str(SHOTS / "gin-360x740.png"))
    finally:
        page.context.close()


def test_with_reduced_motion_the_banner_stands_still(browser: Browser, base: str, alice: User):
    page = _go_gin(browser, base, alice, reduced_motion="reduce")
    try:
        expect(page.locator("#result .celebration")).to_have_text("Gin!", timeout=15_000)
        assert page.evaluate(GIN_ANIMATIONS) == []
    finally:
        page.context.close()


def test_the_results_card_reads_well_on_a_phone(browser: Browser, base: str, alice: User):
    page = _go_gin(browser, base, alice)
    try:
        link = page.locator("#result .results-card-link a")
        expect(link).to_be_visible(timeout=15_000)
        # A stranger with the link: no session, the same card.
        stranger = browser.new_context(viewport=SIZES["360x740"])
        try:
            card = stranger.new_page()
            card.goto(base + link.get_attribute("href"))
            expect(card.locator("#results-card h1")).to_have_text("alice won")
            expect(card.locator(".final-score dd").first).to_have_text("105")
            assert card.evaluate("document.documentElement.scrollWidth") <= 360
            assert not outside(card, "#results-card button[data-share]")
            card.screenshot(path=str(SHOTS / "results-card-360x740.png"))
            found = serious(card)
            assert not found, found
        finally:
            stranger.close()
    finally:
        page.context.close()


SHARE_FILES = """() => {
    navigator.canShare = (data) => !!(data && data.files && data.files.length);
    navigator.share = (data) => {
        const file = data.files[0];
        window.shared = { count: data.files.length, type: file.type, name: file.name,
                          size: file.size, url: data.url, title: data.title };
        return Promise.resolve();
    };
}"""
NO_SHARE = "() => { delete Navigator.prototype.share; delete Navigator.prototype.canShare; }"


def test_the_results_card_shares_its_picture_or_downloads_it(
    browser: Browser, base: str, alice: User
):
    page = _go_gin(browser, base, alice)
    try:
        link = page.locator("#result .results-card-link a")
        expect(link).to_be_visible(timeout=15_000)
        href = str(link.get_attribute("href"))
        # Where the phone's share sheet takes files: the PNG goes to it, with the card's link.
        sharing = browser.new_context(viewport=SIZES["360x740"])
        try:
            sharing.add_init_script(f"({SHARE_FILES})()")
            card = sharing.new_page()
            card.goto(base + href)
            image_url = card.locator('meta[property="og:image"]').get_attribute("content")
            assert image_url and image_url.endswith("/card.png")
            card.get_by_role("button", name="Share").click()
            shared = card.wait_for_function("window.shared").json_value()
            assert shared["count"] == 1 and shared["type"] == "image/png"
            assert shared["name"].endswith(".png") and shared["size"] > 1000
            assert shared["url"] == base + href and shared["title"].startswith(
                "Gin Rummy: alice 105"
            )
        finally:
            sharing.close()
        # Elsewhere (a desktop browser): the picture is downloaded.
        plain = browser.new_context(viewport=SIZES["1280x800"], accept_downloads=True)
        try:
            plain.add_init_script(f"({NO_SHARE})()")
            card = plain.new_page()
            card.goto(base + href)
            with card.expect_download() as download:
                card.get_by_role("button", name="Share").click()
            assert download.value.suggested_filename.endswith(".png")
            saved = SHOTS / "results-card-image.png"
            download.value.save_as(saved)
            png = saved.read_bytes()
            assert png[:8] == b"\x89PNG\r\n\x1a\n"
            assert struct.unpack(">II", png[16:24]) == (1200, 630)
            expect(card.locator("#share-note")).to_have_text("The picture is in your downloads.")
        finally:
            plain.close()
    finally:
        page.context.close()
