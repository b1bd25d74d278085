"""Load ``ginsite/settings.py`` afresh under a given environment, without touching the settings
the test process runs with: what a server started with exactly those variables would get."""

from __future__ import annotations

import re
import runpy
from pathlib import Path
from typing import Any

import pytest

SETTINGS_FILE = Path(__file__).resolve().parents[1] / "ginsite" / "settings.py"
# Every variable the settings read, found in their source, so a new one is cleared too.
NAMES = sorted(
    set(
        re.findall(
            r'\b(?:env\w*|_raw)\(\s*"([A-Z][A-Z0-9_]*)"',
            SETTINGS_FILE.read_text(),
        )
    )
)


def load_settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    """The settings module's names, run with only ``env`` set among the site's variables."""
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS_FILE))
