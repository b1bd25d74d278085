"""Who sees the moderators' pages: staff with the permission (the "Moderators" group), and
superusers. Anyone else gets 404, on every page and every action, and changes nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from lobby.moderation import reports
from lobby.moderation.models import LogEntry, Sanction
from tests.moderation.helpers import moderators_group, signed_in

pytestmark = pytest.mark.django_db

PAGES = ["/moderation/", "/moderation/players/bob/"]
POSTS = [
    ("/moderation/patterns", {}),
    ("/moderation/players/bob/act", {"kind": "warning", "topic": "other", "reason": "x"}),
    ("/moderation/players/bob/dismiss", {"reason": "x"}),
]


def _refused_everywhere(client: Client) -> None:
    for path in PAGES:
        assert client.get(path).status_code in (302, 404), path
    for path, data in POSTS:
        assert client.post(path, data).status_code in (302, 404), path
    assert not Sanction.objects.exists()
    assert not LogEntry.objects.exists()


def test_a_player_is_not_told_the_pages_exist(alice: User, bob: User) -> None:
    client = signed_in(alice)
    for path in PAGES:
        assert client.get(path).status_code == 404
    _refused_everywhere(client)
    assert "/moderation/" not in client.get("/players/alice/").content.decode()


def test_a_visitor_is_sent_nowhere_near(client: Client, bob: User) -> None:
    _refused_everywhere(client)


def test_staff_without_the_permission_is_refused(alice: User, bob: User) -> None:
    alice.is_staff = True
    alice.save()
    _refused_everywhere(signed_in(alice))


def test_the_permission_without_staff_is_refused(alice: User, bob: User) -> None:
    alice.groups.add(moderators_group())
    _refused_everywhere(signed_in(alice))


def test_a_moderator_sees_the_pages_and_the_link(moderator: User, alice: User, bob: User) -> None:
    reports.report(alice, "bob", "stalling")
    client = signed_in(moderator)
    for path in PAGES:
        assert client.get(path).status_code == 200, path
    assert 'href="/moderation/"' in client.get("/players/mo/").content.decode()


def test_a_superuser_moderates_too(django_user_model: type[User], bob: User) -> None:
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw")
    assert signed_in(root).get("/moderation/players/bob/").status_code == 200


def test_the_migration_made_the_group(db: None) -> None:
    from django.contrib.auth.models import Group

    group = Group.objects.get(name="Moderators")
    assert list(group.permissions.values_list("codename", flat=True)) == ["moderate"]
