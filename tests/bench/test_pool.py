"""bench.pool, run small: four players against a server it starts (SQLite, one daphne) are all
paired, into two matches, each player opens its match, nobody twice, and the report (and the
database check after it) says so."""

from __future__ import annotations

import pytest

from bench.pool import run as pool


@pytest.mark.timeout(180)
def test_four_players_are_paired_through_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    result = pool.main(["--players", "4"])
    assert result["paired_players"] == 4
    assert result["matches"] == 2
    assert result["join_statuses"] == {"201": 4}
    assert result["errors"] == {} and result["server_tracebacks"] == 0
    assert result["players_paired_twice"] == result["matches_heard_by_one"] == 0
    assert result["seconds_until_all_paired"] is not None
    assert result["seconds_until_all_opened"] is not None
    database = result["database"]
    assert database["entries"] == {"paired": 4} and database["matches"] == 2
    assert database["players_paired_twice"] == database["matches_not_of_two"] == 0
    assert database["paired_unheard"] == database["paired_events_twice"] == 0
    out, err = capsys.readouterr()
    assert "paired players:          4 in 2 matches" in out
    assert "retries of a 503 or 429" in out
    assert "4 players join the pool at once" in err


def test_it_refuses_an_odd_number_of_players() -> None:
    with pytest.raises(SystemExit):
        pool.parse_args(["--players", "3"])
