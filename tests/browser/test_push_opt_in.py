"""Turning on notifications where the browser cannot sign up for them (issue 41, defect 9): a
private window, or a browser whose push service is out of reach (as headless Chromium's is
here), says why and what to do instead of "That did not work", and lists no device."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, expect

from lobby.models import PushSubscription
from tests.browser.table_helpers import SIZES, sign_in
from tests.lobby.push_service import vapid_key

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_browser_without_a_push_service_is_told_why_and_what_to_do(
    browser: Browser, base: str, alice: User, settings
):  # type: ignore[no-untyped-def]
    settings.VAPID_PRIVATE_KEY = vapid_key()
    context = browser.new_context(viewport=SIZES["360x740"])
    try:
        context.grant_permissions(["notifications"], origin=base)
        sign_in(context, base, alice)
        page = context.new_page()
        page.goto(f"{base}/settings/")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        button = page.locator("#notifications [data-push-on]")
        expect(button).to_be_visible()
        button.click()
        note = page.locator("#notifications [data-push-note]")
        expect(note).to_contain_text("could not sign up for notifications", timeout=15_000)
        expect(note).to_contain_text("private window")
        expect(note).to_contain_text("normal window")
        expect(button).to_be_enabled()
        assert PushSubscription.objects.count() == 0
    finally:
        context.close()
