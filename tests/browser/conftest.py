from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")


# Package scope, not session: the sync API's event loop must be gone before the async
# (channels) tests elsewhere run, or they find a loop already running in this thread.
@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip("browser tests need /usr/bin/chromium (./scripts/test installs it as root)")
    # Playwright's sync API keeps an event loop running in this thread, so Django would refuse
    # the synchronous ORM calls of fixtures and tests; they are still plain sync code.
    with pytest.MonkeyPatch.context() as mp, sync_playwright() as p:
        mp.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A page the size of a small phone screen (360 CSS pixels wide)."""
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    yield page
    context.close()
