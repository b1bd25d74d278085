"""The installable app: the web app manifest, the service worker and its offline page.

* ``/manifest.<lang>.webmanifest``: one per language, each page linking its reader's. A browser
  fetches the manifest without cookies, so the page has to name the language; the ``id`` is the
  same in both, so it is one app whatever language it was installed in.
* ``/sw.js``: the service worker (``templates/pwa/sw.js``), at the root so that its scope is the
  whole site, with ``Cache-Control: no-cache`` so that a browser sees a new version at its next
  check. Its precache list is the site's own static files as the staticfiles storage names them
  at this moment: the hashed names of the collectstatic manifest in a deploy, the plain names
  where the finders serve them (the tests). Its version is a digest of that list and of the
  offline pages, so a deploy that changes either makes a new worker ("Update ready, reload").
* ``/offline/<lang>/``: what the worker shows when a navigation fails: the rules of each preset,
  every number from its ``Ruleset``. It depends on the language alone (no user, no cookie, no
  CSRF token), which is what makes it safe to keep in the worker's cache.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles.finders import FileSystemFinder
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games.engine import PRESETS
from games.howto import NUMBERS, PRESET_ORDER, STOCK_LEFT_AT_DRAW
from games.labels import PRESET_NAMES
from games.offline import views as offline_bea

# The felt of the table (static/css/table.css) and the page background (site.css).
THEME_COLOUR = "#1f5e43"
BACKGROUND_COLOUR = "#f6f4ef"
# What the worker keeps of the site's own static files: what pages load (the PNG icons are
# fetched by the browser when it installs the app, not by a page). Licences and READMEs stay out.
PRECACHED_SUFFIXES = (".css", ".js", ".svg", ".woff2")
# Served without revalidation nowhere: browsers look for a new worker and a changed manifest at
# every check, and the offline pages are fetched only when a worker installs.
NO_CACHE = "no-cache"


def _language(lang: str) -> str:
    if lang not in dict(settings.LANGUAGES):
        raise Http404("No such language")
    return lang


# --- The manifest --------------------------------------------------------------------------------


def _icons() -> list[dict[str, str]]:
    icon = staticfiles_storage.url
    return [
        {"src": icon("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": icon("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": icon("icons/icon-maskable-192.png"),
            "sizes": "192x192",
            "type": "image/png",
            "purpose": "maskable",
        },
        {
            "src": icon("icons/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": icon("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]


def manifest_data(lang: str) -> dict[str, Any]:
    """The web app manifest in ``lang``."""
    with translation.override(lang):
        return {
            "id": "/",
            "name": _("Gin Rummy"),
            "short_name": _("Gin Rummy"),
            "description": _(
                "Play Gin Rummy against a friend or against Bea, the computer, on any screen."
            ),
            "lang": lang,
            "dir": "ltr",
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "theme_color": THEME_COLOUR,
            "background_color": BACKGROUND_COLOUR,
            "categories": ["games"],
            "icons": _icons(),
        }


@require_safe
def manifest(request: HttpRequest, lang: str) -> HttpResponse:
    response = JsonResponse(
        manifest_data(_language(lang)), content_type="application/manifest+json"
    )
    response["Cache-Control"] = NO_CACHE
    return response


# --- The offline page ----------------------------------------------------------------------------


def _row(rule: str, label: str, values: list[Any]) -> dict[str, Any]:
    return {"rule": rule, "label": label, "cells": list(zip(PRESET_ORDER, values, strict=True))}


def _preset_rows() -> list[dict[str, Any]]:
    """One row per number of ``games.howto.NUMBERS`` and per switch, a cell per preset."""
    presets = [PRESETS[name] for name in PRESET_ORDER]
    labels = {
        "target": _("Points to win the match"),
        "knock_limit": _("Knock with deadwood of at most"),
        "gin_bonus": _("Gin bonus"),
        "big_gin_bonus": _("Big Gin bonus"),
        "undercut_bonus": _("Undercut bonus"),
        "game_bonus": _("Game bonus"),
        "box_bonus": _("Box bonus for each hand won"),
    }
    rows = []
    for name in NUMBERS:
        values = [
            _("not played")
            if name == "big_gin_bonus" and not rules.big_gin
            else getattr(rules, name)
            for rules in presets
        ]
        rows.append(_row(name, labels[name], values))
    yes_no = {True: _("yes"), False: _("no")}
    dealer = {"winner": _("the winner"), "alternate": _("in turn")}
    return [
        *rows,
        _row(
            "upcard_offer",
            _("The upcard is offered first"),
            [yes_no[r.upcard_offer] for r in presets],
        ),
        _row(
            "next_dealer",
            _("Who deals the next hand"),
            [dealer[r.next_dealer] for r in presets],
        ),
        _row(
            "shutout_double",
            _("A shutout doubles the net"),
            [yes_no[r.shutout_double] for r in presets],
        ),
    ]


def offline_page(lang: str) -> str:
    """The offline page in ``lang``: rendered without a request, so that nothing of a reader's
    session (a name, a CSRF token) can be in it."""
    with translation.override(lang):
        return render_to_string(
            "pwa/offline.html",
            {
                "lang": lang,
                "presets": [(name, PRESET_NAMES[name]) for name in PRESET_ORDER],
                "rows": _preset_rows(),
                "stock_left": STOCK_LEFT_AT_DRAW,
                "bea_cache": offline_bea.cache_name(),
                "bea_file": offline_bea.kept_file(),
            },
        )


@require_safe
def offline(request: HttpRequest, lang: str) -> HttpResponse:
    response = HttpResponse(offline_page(_language(lang)))
    response["Cache-Control"] = NO_CACHE
    # The page's own language, not the one LocaleMiddleware chose for the request.
    response["Content-Language"] = lang
    return response


# --- The service worker --------------------------------------------------------------------------


def _own_static_names() -> list[str]:
    """The site's own static files (STATICFILES_DIRS: not the admin's or the API docs'), as
    names under STATIC_URL."""
    ignore = apps.get_app_config("staticfiles").ignore_patterns  # type: ignore[attr-defined]
    names = {path.replace(os.sep, "/") for path, _storage in FileSystemFinder().list(ignore)}
    # Pyodide (Bea offline) is kept only once a player chooses offline play, in a cache of its
    # own (``offline_bea_config``): never with every visitor's install.
    return sorted(
        name
        for name in names
        if name.endswith(PRECACHED_SUFFIXES) and not name.startswith("vendor/pyodide/")
    )


def precache_urls() -> list[str]:
    """The URLs the worker stores when it installs: each of the site's own static assets as the
    storage serves it now. With the manifest storage (DEBUG off, after collectstatic) these are
    the hashed names of ``staticfiles.json``, which change with the file: a new deploy's pages
    ask for new URLs, so a worker never answers them with an old file. A file the manifest does
    not know (collectstatic not run since it was added) is left out rather than failing the
    worker. With DEBUG on nothing is stored: a developer's edit shows at the next reload."""
    if settings.DEBUG:
        return []
    names = _own_static_names()
    if isinstance(staticfiles_storage, ManifestFilesMixin):
        names = [name for name in names if name in staticfiles_storage.hashed_files]
    return [staticfiles_storage.url(name) for name in names]


def offline_urls() -> dict[str, str]:
    return {code: reverse("pwa-offline", args=[code]) for code, _name in settings.LANGUAGES}


def offline_bea_config() -> dict[str, Any]:
    """Bea offline (docs/offline.md): her pages, kept with the offline pages; and the files she
    runs on, Pyodide's and the engine's code, kept in a cache of their own once a player first
    chooses offline play, and nothing else ever in it (its bound: about 13.5 MB)."""
    return {
        "cache": offline_bea.cache_name(),
        "files": offline_bea.pyodide_urls(),
        "code": reverse("offline_bea:code"),
        "pages": offline_bea.page_urls(),
    }


def worker_config() -> dict[str, Any]:
    """What the worker script is given: its assets, its offline pages and its version."""
    assets = precache_urls()
    pages = offline_urls()
    bea = offline_bea_config()
    digest = hashlib.sha256(json.dumps([assets, bea]).encode())
    for code in pages:
        digest.update(offline_page(code).encode())
        digest.update(offline_bea.offline_bea_page(code).encode())
    return {
        "version": digest.hexdigest()[:16],
        "assets": assets,
        "offline": pages,
        "offlineBea": bea,
        "defaultLanguage": settings.LANGUAGE_CODE,
        # A notification's picture (Web Push, the worker's "push" handler).
        "icon": staticfiles_storage.url("icons/icon-192.png"),
    }


def worker_script() -> str:
    config = json.dumps(worker_config(), indent=2)
    return render_to_string("pwa/sw.js", {"config": mark_safe(config)})


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(worker_script(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = NO_CACHE
    return response
