from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from tests.browser.live_asgi import serve, wait_idle

CHROMIUM = Path("/usr/bin/chromium")
# Root needs --no-sandbox; the rest keep Chromium from calling home (the network is closed).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# Package scope, not session: the sync API's event loop must be gone before the async
# (channels) tests elsewhere run, or they find a loop already running in this thread.
@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        message = "browser tests need /usr/bin/chromium (./scripts/test installs it as root)"
        if os.environ.get("CI", "").lower() == "true":
            # In CI a missing browser is a failure, never a quiet skip.
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    # Playwright's sync API keeps an event loop running in this thread, so Django would refuse
    # the synchronous ORM calls of fixtures and tests; they are still plain sync code.
    with pytest.MonkeyPatch.context() as mp, sync_playwright() as p:
        mp.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _server_idle_before_the_flush(request: pytest.FixtureRequest) -> Iterator[None]:
    """After every browser test, once its browsers are closed (their fixtures end before this
    one), wait until the in-process server has answered its last request and closed its last
    socket, before the test's database is flushed: a request still running then holds row locks
    the flush's TRUNCATE waits for, and PostgreSQL may end the flush as a deadlock (it did, under
    load), leaving the next test a database that is not empty. The database fixture, which
    flushes at its end, is set up before this one (as pytest-django's marker does) so that it
    ends after it."""
    if request.node.get_closest_marker("django_db") is not None:
        request.getfixturevalue("_django_db_helper")
    yield
    wait_idle()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A page the size of a small phone screen (360 CSS pixels wide)."""
    with phone_contexts(browser, 1) as (context,):
        yield context.new_page()


PHONE = {"width": 360, "height": 740}


@pytest.fixture
def base() -> str:
    """The base URL of the in-process daphne (websockets included), on the test's database."""
    return serve()


@contextmanager
def phone_contexts(browser: Browser, count: int, **options: Any) -> Iterator[list[BrowserContext]]:
    """``count`` separate browsers (one player each), phone-sized; ``options`` go to
    ``new_context`` (``service_workers="block"`` for a test that routes a page's requests:
    ``page.route`` never sees a request the site's service worker answers)."""
    made = [browser.new_context(viewport=PHONE, **options) for _ in range(count)]
    try:
        yield made
    finally:
        for context in made:
            context.close()
        # The server handles the closed sockets (presence rows, seats) in its own thread: wait
        # until it has, before the test's database is flushed under it (that deadlocked once).
        # (Another browser the test still has open keeps it busy: then it goes on after a while.)
        wait_idle()


@pytest.fixture
def contexts(browser: Browser, base: str) -> Iterator[list[BrowserContext]]:
    """Two players' browsers."""
    with phone_contexts(browser, 2) as made:
        yield made


def sign_in_to_lobby(context: BrowserContext, base: str, username: str, password: str) -> Page:
    """Sign in through the real form and open the lobby, its socket connected."""
    page = context.new_page()
    page.goto(base + "/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", password)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(base + "/")
    page.goto(base + "/lobby/")
    # The socket is open once the consumer's catch-up push has arrived and settled.
    page.wait_for_function("document.querySelector('#lobby-players [data-player]') !== null")
    return page
