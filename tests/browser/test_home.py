from __future__ import annotations

import pytest
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def test_it_fits_a_small_phone_and_loads_htmx(live_server: LiveServer, phone: Page) -> None:
    phone.goto(live_server.url + "/")
    assert phone.locator("h1").inner_text() == "Gin Rummy"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    phone.wait_for_function("window.htmx !== undefined")
    assert phone.evaluate("htmx.version").startswith("2.")
