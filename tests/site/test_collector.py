"""A server process freezes what start-up built, including what its first requests would
otherwise build (the URLconf with the API's schema classes, each language's catalogue): the
collector's full passes, which stop every move in flight, never scan those objects again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json
import ginsite.asgi  # as daphne imports it
from django.utils.translation import trans_real
from ginsite.api import api
from games.api.match_schemas import ActionIn

unfrozen = {id(o) for o in gc.get_objects()}  # the frozen generation is not listed
print(json.dumps({
    "frozen": gc.get_freeze_count(),
    "api": id(api) in unfrozen,
    "schema": id(ActionIn.__pydantic_validator__) in unfrozen,
    # Not loaded yet: the first German request loads it, after the freeze.
    "german": "de" not in trans_real._translations
    or id(trans_real._translations["de"]._catalog) in unfrozen,
    "threshold": gc.get_threshold(),
}))
"""


def test_a_server_process_freezes_the_api_and_the_catalogues_at_start() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings"}
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr[-3000:]
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["frozen"] > 100_000
    assert not found["api"], "the API was built after the freeze: scanned by every full pass"
    assert not found["schema"], "a schema class of the API was built after the freeze"
    assert not found["german"], "the German catalogue was loaded after the freeze"
    assert found["threshold"] == [10_000, 10, 10]
