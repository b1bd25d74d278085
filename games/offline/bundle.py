"""The Python a browser runs for Bea offline: this repository's own files, read when asked, so
that the browser plays by the very code the server does; never a copy kept elsewhere.

Besides ``games/engine``, ``games/ai`` and this room's ``driver``, the AI imports
``games.labels`` (the names of suits, for the hint's reasons) and through it two modules of
Django's; the browser has no Django, so it gets a stand-in of the few names used
(``STAND_INS``), which translate from the site's own catalog of those messages (``catalogs``).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils.translation import trans_real

_GAMES = Path(__file__).resolve().parent.parent
# What the browser imports: the engine and the AI entire, except the arena (processes, files)
# and the review (the server's), the labels the AI's reasons use, the table's orders of cards
# (pure) and the driver.
_PACKAGES = ("engine", "ai")
_LEFT_OUT = {"ai/arena.py", "ai/review.py"}
_MODULES = (
    "__init__.py",
    "labels.py",
    "table/__init__.py",
    "table/orders.py",
    "offline/__init__.py",
    "offline/driver.py",
)

STAND_INS = {
    "django/__init__.py": "",
    "django/utils/__init__.py": "",
    "django/utils/functional.py": (
        '"""Bea offline: a stand-in for Django\'s ``lazy`` (games/offline/bundle.py)."""\n\n\n'
        "def lazy(function, *result_classes):\n"
        "    return function\n"
    ),
    "django/utils/translation.py": (
        '"""Bea offline: Django\'s translation functions over the catalog the page hands in\n'
        '(``use_catalog``: the bundle\'s ``catalogs`` for its language)."""\n'
        "\n"
        "_CATALOG = {}\n\n\n"
        "def use_catalog(catalog):\n    _CATALOG.clear()\n    _CATALOG.update(catalog)\n\n\n"
        "def gettext(message):\n    return _CATALOG.get(message, message)\n\n\n"
        "def pgettext(context, message):\n"
        '    return _CATALOG.get(context + "\\x04" + message, message)\n\n\n'
        "def ngettext(singular, plural, number):\n"
        "    return gettext(singular) if number == 1 else gettext(plural)\n"
        "\n\n"
        "gettext_lazy = gettext\npgettext_lazy = pgettext\nngettext_lazy = ngettext\n"
    ),
}


def _sources() -> dict[str, str]:
    files = {}
    for package in _PACKAGES:
        for path in sorted((_GAMES / package).glob("*.py")):
            name = f"{package}/{path.name}"
            if name not in _LEFT_OUT:
                files[f"games/{name}"] = path.read_text(encoding="utf-8")
    for name in _MODULES:
        files[f"games/{name}"] = (_GAMES / name).read_text(encoding="utf-8")
    return files


def _catalogs(sources: str) -> dict[str, dict[str, str]]:
    """The site's translations of the messages these sources use, per language (a message
    with a context keyed ``context + "\\x04" + message``, as gettext does): the offline hint
    reads like the online one. Singular forms only (the AI's reasons have no plurals)."""
    found: dict[str, dict[str, str]] = {}
    for code, _name in settings.LANGUAGES:
        if code == settings.LANGUAGE_CODE:
            continue
        catalog = trans_real.translation(code)._catalog  # type: ignore[attr-defined]
        found[code] = {
            key: str(text)
            for key, text in catalog.items()
            if isinstance(key, str) and key.split("\x04")[-1] in sources and key != ""
        }
    return found


@cache
def bundle() -> dict[str, Any]:
    """``{"version": ..., "files": {path: source}, "catalogs": {language: {message:
    translation}}}``: what the browser writes into Pyodide's file system and imports, and the
    translations it hands the stand-in. The version is a digest of it all (read once per
    process: a deploy restarts the server)."""
    sources = _sources()
    files = {**sources, **STAND_INS}
    catalogs = _catalogs("\n".join(sources.values()))
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name].encode() + b"\0")
    digest.update(json.dumps(catalogs, sort_keys=True).encode())
    return {"version": digest.hexdigest()[:16], "files": files, "catalogs": catalogs}
