"""The installable app in real Chromium: the manifest every page links, the service worker that
controls the pages, the offline page in the reader's language, nothing private in its caches,
the update prompt, and the tab's turn signal."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from games import services
from games.engine import PRESETS
from games.models import Match
from ginsite import pwa
from tests import seeds
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.browser.table_helpers import ARTIFACTS, off_thread, sign_in, table_in
from tests.games.live_helpers import lobby_match

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORKER_READY = "navigator.serviceWorker.ready.then(() => true)"
CONTROLLED = "!!navigator.serviceWorker.controller"
# Every URL in every cache the site's worker made.
CACHED_URLS = """async () => {
    const urls = [];
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) urls.push(request.url);
    }
    return urls;
}"""
# The controlling worker's version, asked over a message channel.
WORKER_VERSION = """() => new Promise(resolve => {
    const channel = new MessageChannel();
    channel.port1.onmessage = event => resolve(event.data);
    navigator.serviceWorker.controller.postMessage({type: "version"}, [channel.port2]);
})"""
# The manifest a page links, checked as a browser would use it: members, icons that load with
# the sizes and types it names, the start URL inside the scope.
MANIFEST_CHECK = """async () => {
    const link = document.querySelector('link[rel="manifest"]');
    const response = await fetch(link.href);
    const manifest = await response.json();
    const icons = [];
    for (const icon of manifest.icons) {
        const src = new URL(icon.src, link.href).href;
        const type = (await fetch(src)).headers.get("Content-Type");
        const image = new Image();
        image.src = src;
        await image.decode();
        icons.push({...icon, loadedType: type, width: image.naturalWidth,
                    height: image.naturalHeight});
    }
    const start = new URL(manifest.start_url, link.href).href;
    const scope = new URL(manifest.scope, link.href).href;
    return {contentType: response.headers.get("Content-Type"), manifest, icons,
            startInScope: start.startsWith(scope), pageLang: document.documentElement.lang};
}"""


# The page and its table of numbers fit a phone's width, with no sideways scrolling.
FITS_THE_PHONE = """() => document.documentElement.scrollWidth <= innerWidth
    && [...document.querySelectorAll("table.presets th, table.presets td")]
        .every(cell => cell.scrollWidth <= cell.clientWidth)"""


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    made = browser.new_context(viewport=PHONE)
    yield made
    made.close()


def controlled_page(context: BrowserContext, url: str) -> Page:
    """A page of the site that the worker controls: the first visit installs the worker, which
    then takes over the page."""
    page = context.new_page()
    page.goto(url)
    assert page.evaluate(WORKER_READY)
    page.wait_for_function(CONTROLLED)
    return page


def check_manifest(page: Page) -> dict[str, Any]:
    found = page.evaluate(MANIFEST_CHECK)
    manifest = found["manifest"]
    assert found["contentType"] == "application/manifest+json"
    for member in ("name", "short_name", "start_url", "scope", "id", "lang"):
        assert manifest[member], member
    assert manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    assert manifest["lang"] == found["pageLang"]
    assert found["startInScope"]
    for icon in found["icons"]:
        assert icon["loadedType"] == icon["type"]
        if icon["sizes"] != "any":
            assert icon["sizes"] == f"{icon['width']}x{icon['height']}"
    pngs = {(icon["sizes"], icon.get("purpose", "any")) for icon in found["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= pngs
    return manifest


def test_it_links_a_valid_manifest_from_every_page_type(
    context: BrowserContext, base: str, alice: User
):
    page = context.new_page()
    public = ["/", "/how-to-play/?rules=classic", "/accounts/login/", "/accounts/signup/"]
    for path in public:
        page.goto(base + path)
        check_manifest(page)
    # Where the browser offers no install, the button stays hidden.
    expect(page.locator("#install-app")).to_be_hidden()
    sign_in(context, base, alice)
    match = table_in(alice, "discard")
    for path in ["/lobby/", "/settings/", "/players/alice/", f"/games/{match.public_id}/"]:
        page.goto(base + path)
        assert page.url == base + path, "signed in, the page itself answers"
        check_manifest(page)
    page.goto(base + "/offline/de/")
    assert check_manifest(page)["name"] == "Gin Rommé"


def test_chromium_finds_the_site_installable_and_the_page_offers_the_install(
    browser: Browser, base: str
):
    # Chromium never offers an install in a private (incognito) context, which is what every
    # new_context is: this needs a profile on disk, in a browser of its own. The flag skips
    # the visits and minutes of use a real browser waits for before it offers.
    with tempfile.TemporaryDirectory() as profile:
        context = browser.browser_type.launch_persistent_context(
            profile,
            executable_path=str(CHROMIUM),
            args=[*CHROMIUM_ARGS, "--bypass-app-banner-engagement-checks"],
            viewport=PHONE,
        )
        try:
            page = controlled_page(context, base + "/")
            cdp = context.new_cdp_session(page)
            assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
            manifest = cdp.send("Page.getAppManifest")
            assert manifest["errors"] == []
            assert manifest["url"] == base + "/manifest.en.webmanifest"
            install = page.locator("#install-app")
            expect(install).to_be_visible()
            expect(install.get_by_role("button")).to_have_text("Install the app")
        finally:
            context.close()


def test_the_worker_registers_and_controls_the_page_after_a_reload(
    context: BrowserContext, base: str
):
    page = context.new_page()
    page.goto(base + "/how-to-play/")
    assert page.evaluate(WORKER_READY)
    page.reload()
    assert page.evaluate(CONTROLLED)
    registration = page.evaluate(
        "navigator.serviceWorker.getRegistration().then(r => [r.scope, r.active.scriptURL])"
    )
    assert registration == [base + "/", base + "/sw.js"]
    # The page's own scripts and styles are what the worker keeps.
    cached = page.evaluate(CACHED_URLS)
    assert base + "/static/css/site.css" in cached
    assert base + "/static/vendor/htmx/htmx.min.js" in cached
    assert base + "/offline/en/" in cached and base + "/offline/de/" in cached


def navigate_offline(page: Page, url: str, lang: str) -> dict[tuple[str, str], str]:
    """Once the worker knows the reader's language (from the site's last answer), turn the
    network off and go to ``url``: the page that answers is in ``lang``, at that address.
    Returns the numbers it shows, by preset and rule."""
    page.wait_for_function(
        "lang => caches.match('/offline/language', {cacheName: 'gin-meta'})"
        ".then(r => r ? r.text() : null).then(stored => stored === lang)",
        arg=lang,
    )
    page.context.set_offline(True)
    page.goto(url)
    assert page.url == url
    assert page.evaluate("document.documentElement.lang") == lang
    cells = page.locator("table.presets td[data-rule]")
    return {
        (cell.get_attribute("data-preset") or "", cell.get_attribute("data-rule") or ""): (
            cell.inner_text()
        )
        for cell in cells.all()
    }


def test_with_the_network_off_a_navigation_shows_the_offline_page_in_english(
    context: BrowserContext, base: str
):
    page = controlled_page(context, base + "/")
    rules = navigate_offline(page, base + "/lobby/", "en")
    expect(page.locator("h1")).to_have_text("You are offline")
    for name, preset in PRESETS.items():
        assert rules[(name, "target")] == str(preset.target)
        assert rules[(name, "knock_limit")] == str(preset.knock_limit)
        assert rules[(name, "undercut_bonus")] == str(preset.undercut_bonus)
        assert rules[(name, "shutout_double")] == ("yes" if preset.shutout_double else "no")
    assert rules[("standard", "big_gin_bonus")] == "not played"
    # Bea offline was never played here: no link to a match that cannot start, but what to do.
    expect(page.locator("#offline-bea-link")).to_be_hidden()
    expect(page.locator("#offline-bea-not-kept")).to_contain_text(
        "Bea offline is not on this device yet: the first time, she needs a connection."
    )
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "pwa-offline-en-360x740.png"), full_page=True)
    assert page.evaluate(FITS_THE_PHONE)


def test_a_reader_who_chose_german_gets_the_offline_page_in_german(
    context: BrowserContext, base: str
):
    # The browser asks for English; the reader picks German on the site.
    page = controlled_page(context, base + "/")
    page.get_by_role("button", name="Deutsch").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    rules = navigate_offline(page, base + "/how-to-play/", "de")
    expect(page.locator("h1")).to_have_text("Du bist offline")
    assert rules[("classic", "big_gin_bonus")] == str(PRESETS["classic"].big_gin_bonus)
    assert rules[("simple", "shutout_double")] == "nein"
    expect(page.locator("#offline-bea-link")).to_be_hidden()
    expect(page.locator("#offline-bea-not-kept")).to_contain_text(
        "Bea offline ist noch nicht auf diesem Gerät"
    )
    page.screenshot(path=str(ARTIFACTS / "pwa-offline-de-360x740.png"), full_page=True)
    assert page.evaluate(FITS_THE_PHONE)
    # Back online, the same address is the page again: the offline page was not kept for it.
    # (In a page of its own: the offline page reloads itself when the browser says it is
    # online, which Playwright tells the page before the worker.)
    context.set_offline(False)
    again = context.new_page()
    again.goto(base + "/how-to-play/")
    expect(again.locator("h1")).to_have_text(re.compile("Gin Rommé"))


def test_no_table_lobby_profile_or_api_answer_is_ever_in_the_workers_caches(
    context: BrowserContext, base: str, alice: User
):
    sign_in(context, base, alice)
    match = table_in(alice, "discard")
    table = f"/games/{match.public_id}/"
    page = controlled_page(context, base + table)
    page.reload()
    expect(page.locator("#status")).to_have_class(re.compile("your-turn"))
    for path in ["/lobby/", "/settings/", "/players/alice/"]:
        page.goto(base + path)
    statuses = page.evaluate(
        """async () => [
            (await fetch('/api/v1/me/matches')).status,
            (await fetch('/health/?format=json')).status,
        ]"""
    )
    assert statuses == [200, 200]
    assert page.evaluate(CONTROLLED)
    cached = page.evaluate(CACHED_URLS)
    # The control: the worker did store things, the static files and the offline pages.
    assert base + "/static/js/pwa.js" in cached
    paths = [url.removeprefix(base) for url in cached]
    stored = [p for p in paths if not p.startswith(("/static/", "/offline/"))]
    assert stored == [], stored
    assert not any(table in p or "/api/" in p for p in paths)


def test_a_new_worker_shows_the_reload_prompt_and_pressing_it_hands_over(
    context: BrowserContext, base: str, monkeypatch: pytest.MonkeyPatch
):
    page = controlled_page(context, base + "/")
    page.reload()
    old = page.evaluate(WORKER_VERSION)
    expect(page.locator("#update-ready")).to_be_hidden()

    # A deploy: the server now serves a different worker.
    served = pwa.worker_script
    new = "feedfacefeedface"
    monkeypatch.setattr(pwa, "worker_script", lambda: served().replace(old, new))
    # The browser looks for a new worker when the reader navigates.
    page.goto(base + "/how-to-play/")
    prompt = page.locator("#update-ready")
    # Chromium looks a second after the old worker went idle, and the new one stores every
    # asset before it waits: 2.4 s here, idle or beside four busy loops, and over expect's
    # 5 s under CI's load.
    expect(prompt).to_be_visible(timeout=30_000)
    expect(prompt).to_contain_text("Update ready.")
    # Until the reader says so, the old worker still serves the page.
    assert page.evaluate(WORKER_VERSION) == old

    with page.expect_navigation():
        prompt.get_by_role("button", name="Reload").click()
    page.wait_for_function(CONTROLLED)
    assert page.evaluate(WORKER_VERSION) == new
    expect(page.locator("#update-ready")).to_be_hidden()
    names = page.evaluate("caches.keys()")
    assert f"gin-static-{new}" in names
    assert f"gin-static-{old}" not in names


HIDDEN_TAB = """() => {
    // Headless Chromium reports every page as visible; this page believes what the test says.
    window.__hidden = false;
    Object.defineProperty(document, "hidden", {configurable: true, get: () => window.__hidden});
    Object.defineProperty(document, "visibilityState", {
        configurable: true, get: () => (window.__hidden ? "hidden" : "visible")});
    window.__titles = [];
    new MutationObserver(() => window.__titles.push(document.title))
        .observe(document.querySelector("title"), {childList: true, characterData: true,
                                                   subtree: true});
}"""


def set_hidden(page: Page, hidden: bool) -> None:
    page.evaluate(
        "hidden => { window.__hidden = hidden;"
        " document.dispatchEvent(new Event('visibilitychange')); }",
        hidden,
    )


def _bob_passes(match: Match) -> None:
    match.refresh_from_db()
    services.submit(match, 1, {"type": "pass"}, match.version)


def test_a_hidden_tab_shows_1_and_a_dot_while_it_is_your_move(
    context: BrowserContext, base: str, alice: User, bob: User
):
    sign_in(context, base, alice)
    match = off_thread(lobby_match, alice, bob)
    off_thread(seeds.deal, match)
    page = context.new_page()
    page.goto(f"{base}/games/{match.public_id}/")
    page.evaluate(HIDDEN_TAB)
    title = page.title()
    icon = page.locator('link[rel="icon"]')
    plain = icon.get_attribute("href")
    expect(page.locator("#status")).to_have_class(re.compile("your-turn"))
    # Shown, it is a plain tab even on your move.
    assert not title.startswith("(1)")

    set_hidden(page, True)
    assert page.title() == "(1) " + title
    assert (icon.get_attribute("href") or "").endswith("favicon-turn.svg")
    set_hidden(page, False)
    assert page.title() == title
    assert icon.get_attribute("href") == plain

    # Hidden again: passing the upcard ends alice's move (the signal goes), and Bob's pass,
    # pushed over the table's socket, makes the move hers again (it comes back).
    set_hidden(page, True)
    page.evaluate("window.__titles = []")
    page.locator("#actions").get_by_role("button", name="Pass").click()
    expect(page.locator("#status")).not_to_have_class(re.compile("your-turn"))
    expect(page).to_have_title(title)
    assert icon.get_attribute("href") == plain
    off_thread(_bob_passes, match)
    page.wait_for_function("window.__titles.length >= 2")
    expect(page.locator("#status")).to_have_class(re.compile("your-turn"))
    assert page.evaluate("window.__titles") == [title, "(1) " + title]
    assert (icon.get_attribute("href") or "").endswith("favicon-turn.svg")
    set_hidden(page, False)
    assert page.title() == title
    assert icon.get_attribute("href") == plain
