"""The installable app's three views (ginsite/pwa.py): the manifest, the service worker and the
offline page. The browser tests (tests/browser/test_pwa.py) drive them in Chromium."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import Client

from games.engine import PRESETS
from ginsite import pwa

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

# What no cache of the worker may ever hold: pages of a reader, the API, sign-in.
PRIVATE = ("/games/", "/lobby/", "/players/", "/settings/", "/api/", "/accounts/", "/admin/")


def worker_config(body: str) -> dict[str, Any]:
    found = re.search(r"^var CONFIG = (\{.*?\n\});$", body, re.MULTILINE | re.DOTALL)
    assert found, "the worker names its configuration"
    return json.loads(found.group(1))


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_it_serves_a_manifest_per_language(client: Client):
    english = client.get("/manifest.en.webmanifest")
    german = client.get("/manifest.de.webmanifest")
    assert english.status_code == german.status_code == 200
    assert english["Content-Type"] == "application/manifest+json"
    assert english["Cache-Control"] == "no-cache"
    en, de = english.json(), german.json()
    assert (en["lang"], de["lang"]) == ("en", "de")
    assert (en["name"], de["name"]) == ("Gin Rummy", "Gin Rommé")
    assert de["description"].startswith("Spiele Gin Rommé")
    # One app, whichever language installed it.
    assert en["id"] == de["id"] == "/"
    for manifest in (en, de):
        assert manifest["display"] == "standalone"
        assert manifest["start_url"].startswith(manifest["scope"])
        assert len(manifest["short_name"]) <= 12
        assert manifest["theme_color"] and manifest["background_color"]


def test_its_icons_are_static_files_of_the_sizes_it_names():
    icons = pwa.manifest_data("en")["icons"]
    purposes = set()
    for icon in icons:
        name = icon["src"].removeprefix("/static/")
        path = Path(finders.find(name))
        if icon["type"] == "image/png":
            width, height = png_size(path)
            assert icon["sizes"] == f"{width}x{height}"
            purposes.add((icon["sizes"], icon.get("purpose", "any")))
        else:
            assert icon["type"] == "image/svg+xml" and path.read_text().startswith("<svg")
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes


def test_it_refuses_a_language_the_site_does_not_speak(client: Client):
    assert client.get("/manifest.fr.webmanifest").status_code == 404
    assert client.get("/offline/xx/").status_code == 404
    assert client.post("/sw.js").status_code == 405


def test_the_worker_is_javascript_at_the_root_that_browsers_check_every_time(client: Client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    # No max-age: a browser that asks for the worker gets the one of this deploy.
    assert response["Cache-Control"] == "no-cache"
    config = worker_config(response.content.decode())
    assert config["offline"] == {"en": "/offline/en/", "de": "/offline/de/"}
    assert re.fullmatch(r"[0-9a-f]{16}", config["version"])


def test_the_precache_list_holds_the_sites_static_files_and_nothing_private(client: Client):
    config = worker_config(client.get("/sw.js").content.decode())
    assets = config["assets"]
    assert "/static/css/site.css" in assets
    assert "/static/js/pwa.js" in assets
    assert "/static/vendor/htmx/htmx.min.js" in assets
    for url in [*assets, *config["offline"].values()]:
        assert url.startswith(("/static/", "/offline/")), url
        assert not url.startswith(PRIVATE), url
    # The site's own files only: not the admin's, not the API docs', no licence texts.
    assert not [url for url in assets if url.startswith(("/static/admin/", "/static/ninja/"))]
    assert not [url for url in assets if url.endswith((".md", "LICENSE", ".png"))]


def test_with_the_collectstatic_manifest_the_list_is_the_hashed_names(
    settings: Any, tmp_path: Path
):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    manifest = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    assets = pwa.precache_urls()
    assert f"/static/{manifest['css/site.css']}" in assets
    assert f"/static/{manifest['js/pwa.js']}" in assets
    assert re.fullmatch(
        r"/static/css/site\.[0-9a-f]{12}\.css", f"/static/{manifest['css/site.css']}"
    )
    assert "/static/css/site.css" not in assets
    # Every URL is a hashed file that collectstatic wrote.
    for url in assets:
        assert (tmp_path / url.removeprefix("/static/")).is_file(), url

    # A deploy that changes a file changes its name, the list and so the worker's version.
    before = pwa.worker_config()["version"]
    manifest["css/site.css"] = "css/site.000000000000.css"
    (tmp_path / "staticfiles.json").write_text(json.dumps({"paths": manifest, "version": "1.1"}))
    settings.STATIC_ROOT = str(tmp_path)  # a new storage reads the changed manifest
    assert pwa.worker_config()["version"] != before


def test_in_development_the_worker_keeps_no_static_file(settings: Any):
    settings.DEBUG = True
    assert pwa.precache_urls() == []


def test_the_offline_page_shows_every_presets_numbers_in_each_language(client: Client):
    for lang, heading in (("en", "You are offline"), ("de", "Du bist offline")):
        response = client.get(f"/offline/{lang}/")
        assert response.status_code == 200
        assert response["Content-Language"] == lang
        assert response["Cache-Control"] == "no-cache"
        html = response.content.decode()
        assert f'<html lang="{lang}">' in html
        assert heading in html
        for name, rules in PRESETS.items():
            for number in ("target", "knock_limit", "gin_bonus", "undercut_bonus"):
                cell = f'data-rule="{number}" data-preset="{name}">{getattr(rules, number)}<'
                assert cell in html, (lang, name, number)


def test_the_offline_page_holds_nothing_of_the_signed_in_reader(client: Client, alice: User):
    client.force_login(alice)
    html = client.get("/offline/en/").content.decode()
    assert "alice" not in html
    assert "csrf" not in html.lower()
    assert client.get("/offline/en/").cookies == {}
    assert html == pwa.offline_page("en")


def test_every_page_links_the_manifest_in_its_readers_language(client: Client):
    assert 'href="/manifest.en.webmanifest"' in client.get("/").content.decode()
    client.cookies["django_language"] = "de"
    html = client.get("/how-to-play/").content.decode()
    assert 'href="/manifest.de.webmanifest"' in html
    assert 'data-worker="/sw.js"' in html
