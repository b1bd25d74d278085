"""Bea offline in real Chromium (docs/offline.md): the server's own engine and AI run in the
browser under Pyodide, fetched only when the player first presses Play and then kept by the
service worker in a cache of its own, whose size is bounded; with the network cut, a whole
match is played; and the browser's engine and the server's agree on seeded matches."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from games.offline import views as offline_views
from games.offline.bundle import bundle
from games.offline.driver import self_play
from tests.browser.conftest import PHONE
from tests.browser.table_helpers import ARTIFACTS
from tests.browser.test_accessibility import serious

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        offline_views.pyodide_version() is None,
        reason="Pyodide is not vendored: run scripts/vendor_pyodide.sh",
    ),
]

ENGINE_MS = 60_000  # Pyodide's first start: 13 MB to fetch and compile
WORKER_READY = "navigator.serviceWorker.ready.then(() => true)"
CONTROLLED = "!!navigator.serviceWorker.controller"
# The caches of Bea offline: each one's URLs and the bytes they hold.
BEA_CACHES = """async () => {
    const found = {};
    for (const name of await caches.keys()) {
        if (!name.startsWith("gin-offline-bea-")) continue;
        const cache = await caches.open(name);
        const entries = {};
        for (const request of await cache.keys()) {
            const response = await cache.match(request);
            entries[new URL(request.url).pathname] = (await response.arrayBuffer()).byteLength;
        }
        found[name] = entries;
    }
    return found;
}"""
SEEDS = ("1", "2", "sept")


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    made = browser.new_context(viewport=PHONE)
    yield made
    made.close()


def _controlled(context: BrowserContext, base: str) -> Page:
    """The home page once, for the worker to install (it keeps Bea's pages), then hers."""
    page = context.new_page()
    page.goto(base + "/")
    assert page.evaluate(WORKER_READY)
    page.goto(base + "/offline/bea/en/")
    page.wait_for_function(CONTROLLED)
    return page


def _start(page: Page, target: str = "50") -> None:
    page.locator("select[name=target]").select_option(target)
    page.get_by_role("button", name="Play Bea offline").click()
    expect(page.locator("#offline-table")).to_be_visible(timeout=ENGINE_MS)


def _play_out(page: Page) -> str:
    """Press something legal until the match is over: an action button when there is one
    (take, pass, draw, knock, next hand), else a card to discard. The closing status."""
    status = page.locator("#offline-status")
    for _press in range(2_000):
        text = status.inner_text()
        if text in ("You won the match.", "Bea won the match."):
            return text
        action = page.locator("#offline-actions button")
        if action.count():
            action.first.click()
        else:
            page.locator("#offline-hand button:enabled").first.click()
    raise AssertionError("the match did not end in 2000 presses")


@pytest.mark.timeout(300)
def test_a_whole_match_against_bea_offline_with_the_network_cut(
    context: BrowserContext, base: str
) -> None:
    page = _controlled(context, base)
    expect(page.locator("#offline-label")).to_contain_text("not on the server")
    # Nothing of Pyodide is fetched or kept before the player chooses to play.
    assert page.evaluate(BEA_CACHES) == {}
    _start(page)  # online, the first time: Pyodide comes and is kept
    kept = page.evaluate(BEA_CACHES)
    [(name, entries)] = kept.items()
    assert name == f"gin-offline-bea-{offline_views.pyodide_version()}"
    assert set(entries) == {*offline_views.pyodide_urls(), "/offline/bea/code.json"}
    size = sum(entries.values())
    assert size < 15_000_000, f"Bea offline keeps {size} bytes"

    context.set_offline(True)
    page.reload()  # the page itself from the worker's cache
    expect(page.locator("h1")).to_have_text("Bea offline")
    _start(page)  # a new match, from the start, with no network
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "offline-bea-en-360x740.png"), full_page=True)
    assert serious(page) == []  # axe, offline too (axe-core is injected, not fetched)
    closing = _play_out(page)
    assert closing in ("You won the match.", "Bea won the match.")
    scores = page.locator("#offline-scores").inner_text()
    assert "(to 50)" in scores
    # The last hand, in one line: its kind and who scored what.
    expect(page.locator("#offline-last-hand")).to_contain_text(re.compile(r"^Hand \d+: "))
    # Saved in the browser, and the worker's cache is still just those files.
    assert page.evaluate("JSON.parse(localStorage.getItem('gin-offline-bea')).over") is True
    assert page.evaluate(BEA_CACHES) == kept
    print(f"\nBea offline's cache: {size} bytes in {len(entries)} files")


@pytest.mark.timeout(300)
def test_the_browsers_engine_and_the_servers_agree_on_seeded_matches(
    context: BrowserContext, base: str
) -> None:
    page = _controlled(context, base)
    _start(page)
    assert page.evaluate("window.ginOffline.version") == bundle()["version"]
    context.set_offline(True)
    for seed in SEEDS:
        for level in ("easy", "expert"):
            browser_side = page.evaluate(
                "([seed, level]) => window.ginOffline.selfPlay('standard', 100, level, seed)",
                [seed, level],
            )
            server_side = self_play("standard", 100, level, seed)
            assert browser_side == server_side, (seed, level)
            assert browser_side["phase"] == "match_over"


@pytest.mark.timeout(300)
def test_the_hint_offline_reads_like_the_hint_online_in_german(
    context: BrowserContext, base: str
) -> None:
    page = _controlled(context, base)
    page.goto(base + "/offline/bea/de/")
    page.locator("select[name=target]").select_option("50")
    page.get_by_role("button", name="Offline gegen Bea spielen").click()
    expect(page.locator("#offline-table")).to_be_visible(timeout=ENGINE_MS)
    expect(page.locator("#offline-status")).to_contain_text("Du bist dran")
    page.get_by_role("button", name="Tipp").click()
    hint = page.locator("#offline-hint-text")
    expect(hint).not_to_be_empty()
    # Bea's reasons come from the site's German catalog: no English word of them is left.
    text = hint.inner_text()
    assert not re.search(r"\b(take|pass|keeps|does not fit|your hand)\b", text), text
