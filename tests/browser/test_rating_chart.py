"""The profile's rating chart in real Chromium: drawn, labelled and inside the page on a
phone (360x740) and a laptop (1280x800), in English and in German. Screenshots go to
test-artifacts/."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, expect

from tests.browser.table_helpers import ARTIFACTS, SIZES, off_thread, sign_in
from tests.lobby.rating_helpers import rated_history

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TITLES = {"en-GB": "Standard rating over time", "de-DE": "Standard-Wertung im Verlauf"}
AXES = {"en-GB": "Rated matches played", "de-DE": "Gewertete Partien gespielt"}


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
@pytest.mark.parametrize("size", ["360x740", "1280x800"])
def test_the_chart_fits_and_reads(
    browser: Browser, base: str, alice: User, bob: User, size: str, locale: str
):
    off_thread(rated_history, alice, bob, [1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 0, 1])
    context = browser.new_context(viewport=SIZES[size], locale=locale)
    try:
        sign_in(context, base, bob)
        page = context.new_page()
        page.goto(base + reverse("lobby:player", args=["alice"]))
        figure = page.locator('.rating-chart[data-preset="standard"]')
        svg = figure.locator("svg")
        expect(svg).to_have_accessible_name(TITLES[locale])
        expect(svg).to_have_accessible_description(re.compile(r"^(From|Von) 1500 "))
        expect(svg.locator(".line")).to_be_attached()
        expect(figure.locator(".axis-label").first).to_have_text(AXES[locale])
        box = svg.bounding_box()
        assert box is not None
        width = SIZES[size]["width"]
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
        # Readable: the chart is a good part of a phone's width, and its labels are not tiny.
        assert box["width"] >= min(300, width * 0.8), box
        label_px = svg.locator(".grid text").first.evaluate("t => t.getBoundingClientRect().height")
        assert label_px >= 9, label_px
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        svg.scroll_into_view_if_needed()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"rating-chart-{size}-{locale}.png"), full_page=True)
    finally:
        context.close()
