"""Bea, the site's own computer opponent, as an outside bot (needs this repository on the path):

python -m ginclient --server URL --token T --bot ginclient/bots/bea.py:choose --seek
"""

from __future__ import annotations

import os
from typing import Any

from games.ai import choose as bea_choose

LEVEL = os.environ.get("BEA_LEVEL", "medium")


def choose(view: dict[str, Any]) -> dict[str, Any]:
    return bea_choose(view, level=LEVEL)
