from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from lobby.models import Profile, free_display_name

pytestmark = pytest.mark.django_db


def test_it_gives_every_new_user_a_profile(alice: User) -> None:
    assert alice.profile.display_name == "alice"


def test_it_numbers_a_taken_name(alice: User, django_user_model: type[User]) -> None:
    alice.profile.display_name = "Dora"
    alice.profile.save()
    dora = django_user_model.objects.create_user(username="dora", password="x")
    assert dora.profile.display_name == "dora2"


def test_it_never_derives_the_reserved_name(django_user_model: type[User]) -> None:
    bea = django_user_model.objects.create_user(username="BEA", password="x")
    assert bea.profile.display_name == "BEA2"


def test_it_pads_a_too_short_username() -> None:
    assert free_display_name("x") == "player"


def test_it_refuses_a_duplicate_in_another_case(alice: User, bob: User) -> None:
    bob.profile.display_name = "ALICE"
    with pytest.raises(IntegrityError), transaction.atomic():
        bob.profile.save()
    assert Profile.objects.filter(display_name__iexact="alice").count() == 1
