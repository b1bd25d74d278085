"""Bea offline's server side (games/offline, docs/offline.md): the code a browser runs is this
repository's own engine and AI, byte for byte; the driver's match is a pure function of its
seed and log, so a saved match comes back as it was; a refused action changes nothing; the page
is in the reader's language and holds nothing of the reader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.offline import driver
from games.offline.bundle import STAND_INS, bundle
from games.table import orders

GAMES = Path(__file__).resolve().parents[2] / "games"


def test_it_sends_the_engine_and_the_ai_exactly_as_they_are_on_disk() -> None:
    files = bundle()["files"]
    for package in ("engine", "ai"):
        for path in (GAMES / package).glob("*.py"):
            name = f"games/{package}/{path.name}"
            if path.name in ("arena.py", "review.py"):
                assert name not in files  # the server's tools, not the game's
            else:
                assert files[name] == path.read_text(encoding="utf-8"), name
    assert files["games/offline/driver.py"] == (GAMES / "offline/driver.py").read_text()
    # Nothing else of Django than the two stand-ins of translation the AI's reasons import.
    django = {name for name in files if name.startswith("django/")}
    assert django == set(STAND_INS)


def _bea_answers(answer: dict) -> dict:
    """Bea's moves one by one, as the page asks for them, until it is the player's turn."""
    while True:
        following = json.loads(driver.page_bea())
        if not following["bea"]:
            return answer
        assert len(following["bea"]) == 1  # one move an answer, for the page to show each
        answer = following


def test_a_saved_match_comes_back_as_it_was() -> None:
    started = json.loads(driver.page_start("standard", 100, "hard", "s-7"))
    answer = started
    for _turn in range(6):
        view = answer["view"]
        if view["phase"] in ("hand_over", "match_over"):
            break
        answer = json.loads(driver.page_play(json.dumps(view["legal_actions"][-1])))
        answer = _bea_answers(answer)
    restored = json.loads(driver.page_restore(json.dumps(answer["saved"])))
    assert restored["view"] == answer["view"]
    assert restored["saved"] == answer["saved"]


def test_a_refused_action_changes_nothing() -> None:
    before = json.loads(driver.page_start("classic", 50, "easy", "s-8"))
    refused = json.loads(driver.page_play(json.dumps({"type": "knock", "card": "AS"})))
    assert refused["refused"] == "Take the upcard or pass."
    assert driver._current is not None
    assert driver._current.saved() == before["saved"]
    assert driver._current.view() == before["view"]


@pytest.mark.django_db
def test_the_page_is_in_the_readers_language_and_holds_nothing_of_them(
    client: Client, alice: User
) -> None:
    client.force_login(alice)
    german = client.get("/offline/bea/de/")
    assert german.status_code == 200 and german["Content-Language"] == "de"
    page = german.content.decode()
    assert "Offline gegen Bea spielen" in page
    assert "nicht auf dem Server" in page
    assert "alice" not in page and "csrfmiddlewaretoken" not in page
    assert client.get("/offline/bea/xx/").status_code == 404
    code = client.get("/offline/bea/code.json").json()
    assert code == bundle()


def test_the_hint_speaks_the_readers_language_through_the_stand_in() -> None:
    """The stand-in of Django's translation answers from the catalog the page hands it."""
    catalogs = bundle()["catalogs"]
    assert set(catalogs) == {"de"}
    namespace: dict[str, object] = {}
    exec(STAND_INS["django/utils/translation.py"], namespace)
    namespace["use_catalog"](catalogs["de"])  # type: ignore[operator]
    assert namespace["pgettext"]("suit", "hearts") == "Herz"  # type: ignore[operator]
    assert namespace["gettext"]("not in the catalog") == "not in the catalog"  # type: ignore[operator]


def test_the_hand_is_in_the_order_the_player_chose_by_the_online_tables_own_code() -> None:
    answer = json.loads(driver.page_start("standard", 100, "easy", "s-9"))
    view = answer["view"]
    assert answer["table"]["sort"] == "melds"
    assert answer["table"]["next_sort"] == "suit"
    by_suit = json.loads(driver.page_arrange("suit", ""))
    assert [c for c, _m, _g in by_suit["table"]["hand"]] == sorted(view["hand"], key=orders.by_suit)
    assert by_suit["table"]["next_sort"] == "rank"
    by_rank = json.loads(driver.page_arrange("rank", ""))
    assert [c for c, _m, _g in by_rank["table"]["hand"]] == sorted(view["hand"], key=orders.by_rank)
    # Dragged: that order, kept in what the browser saves, and restored with it.
    dragged = list(reversed(view["hand"]))
    moved = json.loads(driver.page_arrange("", " ".join(dragged)))
    assert [c for c, _m, _g in moved["table"]["hand"]] == dragged
    restored = json.loads(driver.page_restore(json.dumps(moved["saved"])))
    assert [c for c, _m, _g in restored["table"]["hand"]] == dragged


def test_a_wrong_sort_or_a_foreign_card_is_refused_and_changes_nothing() -> None:
    before = json.loads(driver.page_start("standard", 100, "easy", "s-10"))
    assert "refused" in json.loads(driver.page_arrange("colour", ""))
    hand = before["view"]["hand"]
    assert "refused" in json.loads(driver.page_arrange("", " ".join([*hand[:-1], "ZZ"])))
    assert driver._current is not None
    assert driver._current.saved() == before["saved"]
