"""/how-to-play/: the rules of each preset, every number the one the engine plays by."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from django.test import Client

from games.engine import PRESETS

from .conftest import start, url

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

GERMAN = {"accept-language": "de-DE,de;q=0.9"}


def marked_numbers(page: str) -> dict[str, list[str]]:
    """Every number the page marks with the rule option it states: option -> values shown."""
    found: dict[str, list[str]] = {}
    for name, value in re.findall(r'<b data-rule="(\w+)">([^<]*)</b>', page):
        found.setdefault(name, []).append(value)
    return found


def marked_options(page: str) -> dict[str, str]:
    return dict(re.findall(r'data-rule="(\w+)" data-value="(\w+)"', page))


def expected_numbers(preset: str) -> set[str]:
    """The options whose numbers the page must state for ``preset``."""
    rules = PRESETS[preset]
    wanted = {"target", "knock_limit", "gin_bonus", "undercut_bonus"}
    if rules.big_gin:
        wanted.add("big_gin_bonus")
    if rules.game_bonus:
        wanted.add("game_bonus")
    if rules.box_bonus:
        wanted.add("box_bonus")
    return wanted


@pytest.mark.parametrize("language", [{}, GERMAN], ids=["en", "de"])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_it_states_each_presets_numbers(client: Client, preset: str, language: dict[str, str]):
    rules = PRESETS[preset]
    response = client.get(f"/how-to-play/?rules={preset}", headers=language)
    assert response.status_code == 200
    page = response.content.decode()

    numbers = marked_numbers(page)
    assert expected_numbers(preset) <= set(numbers), f"{preset} misses a number"
    for name, values in numbers.items():
        assert set(values) == {str(getattr(rules, name))}, f"{preset}: {name} shown as {values}"
    # Nothing but the marked numbers is stated for bonuses a preset does not have.
    if not rules.big_gin:
        assert "big_gin_bonus" not in numbers

    options = marked_options(page)
    assert options["next_dealer"] == rules.next_dealer
    assert options["big_gin"] == ("on" if rules.big_gin else "off")
    assert options["shutout_double"] == ("on" if rules.shutout_double else "off")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_its_worked_examples_score_by_the_presets_rules(client: Client, preset: str):
    rules = PRESETS[preset]
    page = client.get(f"/how-to-play/?rules={preset}").content.decode()
    # The undercut: knocker 7 deadwood, defender 6 after laying off 7♥.
    undercut = re.search(r'id="example-undercut" data-points="(\d+)"', page)
    assert undercut and int(undercut[1]) == 7 - 6 + rules.undercut_bonus
    assert "lays off 7♥" in page
    # Gin against 13 deadwood.
    gin = re.search(r'id="example-gin" data-points="(\d+)"', page)
    assert gin and int(gin[1]) == rules.gin_bonus + 13
    # The settlement of a match won 112 to 46, four hands to three.
    tally_winner = 112 + rules.game_bonus + 4 * rules.box_bonus
    tally_loser = 46 + 3 * rules.box_bonus
    net = re.search(r'id="example-settlement" data-net="(\d+)"', page)
    assert net and int(net[1]) == tally_winner - tally_loser
    shutout = 2 * (112 + rules.game_bonus + 4 * rules.box_bonus)
    if rules.shutout_double:
        assert f"would be doubled: {shutout}" in page
    else:
        assert "would be doubled" not in page


def test_it_speaks_german(client: Client):
    page = client.get("/how-to-play/?rules=classic", headers=GERMAN).content.decode()
    assert "So wird Gin Rommé gespielt" in page
    assert "Unterbieten" in page


def test_an_unknown_preset_shows_the_standard_rules(client: Client):
    page = client.get("/how-to-play/?rules=nonsense").content.decode()
    assert 'data-preset="standard"' in page


def test_rules_and_help_lead_to_it(client: Client):
    for path in ("/rules/", "/help/"):
        response = client.get(path + "?rules=simple")
        assert response.status_code == 302
        assert response["Location"] == "/how-to-play/?rules=simple"


def test_home_lobby_and_footer_link_to_it(client: Client, alice: User):
    home = client.get("/").content.decode()
    assert home.count('href="/how-to-play/"') >= 2  # the home page's own link and the footer's
    client.force_login(alice)
    lobby = client.get("/lobby/").content.decode()
    assert lobby.count('href="/how-to-play/"') >= 2


def test_the_table_links_to_its_own_presets_page(alice: User, alice_client: Client):
    match = start(alice, preset="classic")
    page = alice_client.get(url(match, "table")).content.decode()
    assert 'href="/how-to-play/?rules=classic"' in page
