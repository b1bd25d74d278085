"""``manage.py arena``: the report, and one JSON object as the last line."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def test_it_prints_the_report_and_json() -> None:
    out, err = StringIO(), StringIO()
    call_command(
        "arena",
        "baseline",
        "random",
        "--matches",
        "2",
        "--seed",
        "5",
        "--target",
        "20",
        "--json",
        stdout=out,
        stderr=err,
    )
    lines = out.getvalue().strip().splitlines()
    data = json.loads(lines[-1])
    assert data["matches"] == 2 and sum(data["wins"]) == 2
    assert "win rate" in out.getvalue()


def test_it_refuses_a_bad_player() -> None:
    with pytest.raises(CommandError):
        call_command("arena", "nobody", "random", "--matches", "1", stdout=StringIO())
