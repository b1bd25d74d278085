"""Only ``games.access`` reads or sets a seat-key cookie (DESIGN.md principle 10): no other
module of the site names the cookies, their names' makers or the helpers that set them, so
"who is asking" has one answer to read and one place to harden."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "lobby", "ginsite")
DOOR = Path("games/access.py")
# The cookies' names, the constants and helpers that used to spread them, in any spelling.
KEY_COOKIES = re.compile(
    r"GUEST_COOKIE|OWNER_COOKIE|cookie_name|set_key_cookie|gin_guest|gin_local|gin_seat_"
)


def _modules() -> list[Path]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if "migrations" not in relative.parts:
                found.append(relative)
    return found


def _naming_key_cookies(paths: list[Path]) -> list[str]:
    hits = []
    for path in paths:
        for number, line in enumerate((ROOT / path).read_text().splitlines(), 1):
            if KEY_COOKIES.search(line):
                hits.append(f"{path}:{number}: {line.strip()}")
    return hits


def test_only_the_access_door_names_a_key_cookie():
    others = [path for path in _modules() if path != DOOR]
    assert len(others) > 50, "the scan found the site's modules"
    assert _naming_key_cookies(others) == []


def test_the_scan_finds_the_cookies_where_they_are():
    # The door itself names all three, so a module that did would be caught the same way.
    hits = "\n".join(_naming_key_cookies([DOOR]))
    for name in ("gin_guest", "gin_local", "gin_seat_"):
        assert name in hits
