"""Names that look like a taken or reserved one are refused: compared by their confusables
skeleton (Unicode TR39) after NFKC, and names with blank or invisible characters are refused
outright. Account display names must not look like another's; guests' names only must not
look like Bea's."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.test import Client

from games.private.tables import clean_guest_name
from ginsite.lib import names
from lobby.models import Profile

pytestmark = pytest.mark.django_db

PASSPHRASE = "a long pass phrase"
CYRILLIC_A = "\u0430"
CYRILLIC_E = "\u0435"
GREEK_BETA = "\u0392"
BLANKS = ["\u3164", "\u2800", "\u115f", "\u1160", "\uffa0"]


def _signup(client: Client, display_name: str, **headers: str):  # type: ignore[no-untyped-def]
    return client.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "display_name": display_name,
            "email": "dora@example.com",
            "password1": PASSPHRASE,
            "password2": PASSPHRASE,
        },
        headers=headers,
    )


def _errors(response) -> list[str]:  # type: ignore[no-untyped-def]
    return response.context["form"].errors.get("display_name", [])


@pytest.mark.parametrize("name", [f"{CYRILLIC_A}lice", "\uff41lice", "aIice", "AL\u0399CE"])
def test_it_refuses_a_name_that_looks_like_a_taken_one(
    client: Client, alice: User, name: str
) -> None:
    response = _signup(client, name)
    assert response.status_code == 200
    assert _errors(response) == [
        f"“{name}” looks like “alice”, the name of another player. Please choose another name."
    ]
    assert not User.objects.filter(username="dora").exists()


@pytest.mark.parametrize("blank", BLANKS)
def test_it_refuses_blank_characters(client: Client, alice: User, blank: str) -> None:
    for name in (f"alice{blank}", f"Dora{blank}", f"Do{blank}ra"):
        response = _signup(client, name)
        assert _errors(response) == [
            "A display name cannot contain invisible, blank or control characters."
        ], name
    assert not User.objects.filter(username="dora").exists()


@pytest.mark.parametrize("name", [f"B{CYRILLIC_E}a", f"{GREEK_BETA}ea", "BEA", "B\uff45a"])
def test_it_refuses_a_name_that_looks_like_bea(client: Client, name: str) -> None:
    response = _signup(client, name)
    assert _errors(response) == [f"“{name}” is reserved. Please choose another name."]


def test_beas_name_with_a_blank_is_refused_too(client: Client) -> None:
    response = _signup(client, "Bea\u3164")
    assert _errors(response) == [
        "A display name cannot contain invisible, blank or control characters."
    ]


@pytest.mark.parametrize("name", ["Alina", "alicia", "Zoë", "Алиса", "Jürgen Ærø", "Beat"])
def test_a_genuinely_different_name_is_still_accepted(
    client: Client, alice: User, name: str
) -> None:
    response = _signup(client, name)
    assert response.status_code == 302, _errors(response)
    assert User.objects.get(username="dora").profile.display_name == name


def test_settings_refuse_a_look_alike_too(client: Client, alice: User, bob: User) -> None:
    client.force_login(bob)
    response = client.post("/settings/", {"display_name": f"{CYRILLIC_A}lice", "language": ""})
    assert response.status_code == 200
    assert "looks like “alice”, the name of another player." in response.content.decode()
    bob.profile.refresh_from_db()
    assert bob.profile.display_name == "bob"


def test_the_database_keeps_look_alikes_out(alice: User, bob: User) -> None:
    # Two sign-ups racing past the form's check: the unique skeleton decides.
    bob.profile.display_name = f"{CYRILLIC_A}LICE"
    with pytest.raises(IntegrityError), transaction.atomic():
        bob.profile.save()
    assert Profile.objects.get(user=alice).name_key == names.key("alice")


def test_guests_may_share_a_name_but_not_look_like_bea() -> None:
    assert clean_guest_name(f"{CYRILLIC_A}lice") == f"{CYRILLIC_A}lice"
    for name in (f"B{CYRILLIC_E}a", f"{GREEK_BETA}ea", "Bea\u3164", "Bob\u2800"):
        with pytest.raises(Exception, match="reserved|invisible, blank"):
            clean_guest_name(name)


def test_it_says_so_in_german(client: Client, alice: User) -> None:
    client.cookies["django_language"] = "de"
    looks = _errors(_signup(client, f"{CYRILLIC_A}lice"))
    blank = _errors(_signup(client, "Dora\u2800"))
    assert looks == [
        f"„{CYRILLIC_A}lice“ sieht aus wie „alice“, der Name eines anderen Spielers. "
        "Bitte wähle einen anderen Namen."
    ]
    assert blank == [
        "Ein Anzeigename darf keine unsichtbaren oder leeren Zeichen und keine Steuerzeichen "
        "enthalten."
    ]


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_existing_names_their_keys_and_renames_nobody() -> None:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate([("lobby", "0004_api")])
    old = executor.loader.project_state([("lobby", "0004_api")]).apps
    user_model, profile_model = old.get_model("auth", "User"), old.get_model("lobby", "Profile")
    # Made before keys existed: a name and two that look like it.
    for username, name in [("u1", "alice"), ("u2", f"{CYRILLIC_A}lice"), ("u3", "Bob")]:
        user = user_model.objects.create(username=username)
        profile_model.objects.create(user=user, display_name=name)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    rows = list(Profile.objects.order_by("pk").values_list("display_name", "name_key"))
    first, second, third = rows
    assert first == ("alice", names.key("alice"))
    assert second[0] == f"{CYRILLIC_A}lice" and second[1].startswith(names.key("alice") + "#")
    assert third == ("Bob", names.key("Bob"))
    # Nothing new may look like either of them.
    with pytest.raises(IntegrityError), transaction.atomic():
        Profile.objects.filter(display_name="Bob").update(name_key=names.key("alice"))
