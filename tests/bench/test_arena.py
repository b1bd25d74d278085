"""bench.arena, run small so that it cannot rot: six bots play a 15-second arena on a server it
starts (SQLite, one daphne) with two pages watching, to its end (the matches started before it
finish, however slow the machine), and the report says what the bench checks: matches were
played and counted, nobody was seated twice at once, the standings equal a recount
from the stored matches, every viewer's page heard the changes, and nothing failed."""

from __future__ import annotations

import pytest

from bench.arena import run as arena


@pytest.mark.timeout(300)
def test_six_bots_play_a_short_arena(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--config", "embedded", "--players", "6", "--viewers", "2", "--minutes", "0.25"]
    argv += ["--beside", "1"]  # one more page in the bots' own process
    result = arena.main([*argv, "--think", "0", "--grace", "180"])
    assert result["arena_finished"]
    assert result["matches"] >= 3
    assert result["outcomes"].get("win", 0) + result["outcomes"].get("abort", 0) >= 1
    assert result["seated_twice_at_once"] == 0
    assert result["standings_differ_from_recount"] == 0
    assert result["errors"] == {} and result["viewer_errors"] == {}
    assert result["server_tracebacks"] == 0
    assert result["end_to_viewer_ms"]["n"] >= 2  # each viewer heard a match's end
    assert result["end_to_viewer_beside_bots_ms"]["n"] >= 1
    assert result["push_bytes"]["n"] >= 2
    out, err = capsys.readouterr()
    assert "seated twice at once 0, standings differing from a recount 0" in out
    assert "6 bots join arena" in err
