"""Bea offline's page and the code it runs. The page is rendered without a request (like the
offline page, ``ginsite.pwa``), so that the service worker may keep it: nothing of a reader is
in it, no name, no CSRF token."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_safe

from games.ai import LEVELS
from games.labels import PRESET_NAMES
from games.web.forms import LEVEL_CHOICES

from .bundle import bundle

PYODIDE_DIR = Path(settings.BASE_DIR) / "static" / "vendor" / "pyodide"
# The files Pyodide loads (scripts/vendor_pyodide.sh keeps these and no others).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
NO_CACHE = "no-cache"


def pyodide_version() -> str | None:
    """The vendored Pyodide's version, or None when it is not installed."""
    found = PYODIDE_DIR / "VERSION"
    return found.read_text().strip() if found.exists() else None


def pyodide_url() -> str:
    """Where the browser loads Pyodide from: the unhashed names (``pyodide.mjs`` imports its
    siblings by name), under a directory whose version is in the worker's cache name."""
    return f"/{settings.STATIC_URL.strip('/')}/vendor/pyodide/"


def pyodide_urls() -> list[str]:
    return [pyodide_url() + name for name in PYODIDE_FILES] if pyodide_version() else []


def cache_name() -> str:
    """The service worker's cache of Pyodide's files and the engine's code (templates/pwa/sw.js),
    named for Pyodide's version: a page asks it whether Bea is kept on this device yet."""
    return f"gin-offline-bea-{pyodide_version() or 'none'}"


def kept_file() -> str:
    """The file whose presence in that cache says Pyodide is kept: its WebAssembly, without
    which it cannot start (the offline page and Bea's page both ask for it)."""
    return pyodide_url() + "pyodide.asm.wasm"


def page_urls() -> dict[str, str]:
    return {code: reverse("offline_bea:page", args=[code]) for code, _name in settings.LANGUAGES}


def offline_bea_page(lang: str) -> str:
    with translation.override(lang):
        return render_to_string(
            "games/offline/bea.html",
            {
                "lang": lang,
                "installed": pyodide_version() is not None,
                "pyodide_url": pyodide_url(),
                "code_url": reverse("offline_bea:code"),
                "bea_cache": cache_name(),
                "bea_file": kept_file(),
                "presets": list(PRESET_NAMES.items()),
                "levels": LEVEL_CHOICES,
                "default_level": LEVELS[1],
            },
        )


@require_safe
def page(request: HttpRequest, lang: str) -> HttpResponse:
    if lang not in dict(settings.LANGUAGES):
        raise Http404("No such language.")
    response = HttpResponse(offline_bea_page(lang))
    response["Cache-Control"] = NO_CACHE
    response["Content-Language"] = lang
    return response


@require_safe
def code(request: HttpRequest) -> JsonResponse:
    """The Python the page runs: this server's own engine and AI (``bundle``)."""
    response = JsonResponse(bundle())
    response["Cache-Control"] = NO_CACHE
    return response
