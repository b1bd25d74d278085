"""Combining marks: a mark that makes no letter with the one before it (a dot above an i, a
Hebrew point on a Latin e, Zalgo text) is refused, and the accents of Latin, Greek and Cyrillic
letters do not make a name another one ("b\\u0323ob" is "bob"). Names whose marks belong to
their letters, in any script, are welcome (issue 28)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.forms import ValidationError
from django.test import Client

from games.private.tables import clean_guest_name
from ginsite.lib import names
from lobby.models import Profile

from .test_signup import _name_errors as _errors
from .test_signup import _signup

pytestmark = pytest.mark.django_db

MARKS_REFUSED = (
    "A display name cannot contain a mark that makes no letter with the one before it "
    "(such as a dot above an i)."
)
# A dot above an i (no letter "i with a dot above" exists), a Hebrew point on a Latin e, a
# mark with no letter before it, Zalgo strokes over an o, a Yoruba e with two marks.
STRAY = ["ali\u0307ce", "alice\u05b0", "\u0301dora", "Do\u0336\u0337ra", "\u1eb9\u0301ko"]
# Every one of these is a different player from the others and from alice and bob.
WELCOME = [
    "Zoë",
    "José",
    "Łukasz",
    "Ðorđe",
    "Nguyễn",
    "Ёжик",
    "Ἀθηνᾶ",
    "さくら",
    "ガリ",
    "カリ",
    "김민준",
    "राम",
    "रामु",
    "สมชาย",
    "שָׁלוֹם",
    "مُحَمَّد",
]


@pytest.mark.parametrize("name", STRAY)
def test_it_refuses_a_mark_that_makes_no_letter(client: Client, alice: User, name: str) -> None:
    response = _signup(client, name)
    assert response.status_code == 200
    assert _errors(response) == [MARKS_REFUSED]
    assert not User.objects.filter(username="dora").exists()


@pytest.mark.parametrize(
    ("name", "other"), [("b\u0323ob", "bob"), ("Bób", "bob"), ("ȧlice", "alice")]
)
def test_accents_do_not_make_another_name(
    client: Client, alice: User, bob: User, name: str, other: str
) -> None:
    response = _signup(client, name)
    assert _errors(response) == [
        f"“{names.normalise(name)}” looks like “{other}”, the name of another player. "
        "Please choose another name."
    ]
    assert not User.objects.filter(username="dora").exists()


def test_names_whose_marks_belong_to_their_letters_are_welcome(
    client: Client, alice: User, bob: User
) -> None:
    for n, name in enumerate(WELCOME):
        response = _signup(Client(), name, username=f"player{n}")
        assert response.status_code == 302, (name, _errors(response))
    shown = set(Profile.objects.values_list("display_name", flat=True))
    assert shown >= {names.normalise(name) for name in WELCOME}


def test_guests_names_follow_the_same_rule() -> None:
    with pytest.raises(ValidationError, match="makes no letter"):
        clean_guest_name("ali\u0307ce")
    assert clean_guest_name("Zoë") == "Zoë"


def test_it_says_so_in_german(client: Client) -> None:
    client.cookies["django_language"] = "de"
    assert _errors(_signup(client, "ali\u0307ce")) == [
        "Ein Anzeigename darf kein Zeichen enthalten, das mit dem Buchstaben davor keinen "
        "Buchstaben ergibt (etwa einen Punkt über einem i)."
    ]


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_apart_names_that_now_look_alike() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([("lobby", "0009_challenge_counter")])
    old = executor.loader.project_state([("lobby", "0009_challenge_counter")]).apps
    user_model, profile_model = old.get_model("auth", "User"), old.get_model("lobby", "Profile")
    # Made with the keys of before, which kept accents: four names, two pairs now alike.
    for username, name, key in [
        ("u1", "ḅob", "ḅob"),
        ("u2", "bob", "bob"),
        ("u3", "José", "josé"),
        ("u4", "Jose", "jose"),
    ]:
        user = user_model.objects.create(username=username)
        profile_model.objects.create(user=user, display_name=name, name_key=key)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    keys = dict(Profile.objects.values_list("display_name", "name_key"))
    # The names whose key did not change keep it; the others get one marked with their id.
    assert keys["bob"] == "bob" and keys["Jose"] == "jose"
    assert keys["ḅob"].startswith("bob#") and keys["José"].startswith("jose#")
    # Nobody was renamed, and saving a profile keeps its marked key (no clash).
    profile = Profile.objects.get(display_name="José")
    profile.language = "de"
    profile.save()
    profile.refresh_from_db()
    assert profile.name_key == keys["José"]
