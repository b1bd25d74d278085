"""Helpers of the moderation tests: a moderator, a report, played matches."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.test import Client

from lobby.moderation.access import GROUP
from lobby.moderation.models import Report

HTMX = {"HTTP_HX_REQUEST": "true"}


def moderators_group() -> Group:
    """The group the migration makes (made again here: a transactional test's flush empties
    every table, the migration's rows too)."""
    content_type, _ = ContentType.objects.get_or_create(app_label="moderation", model="report")
    permission, _ = Permission.objects.get_or_create(
        content_type=content_type,
        codename="moderate",
        defaults={"name": "Can review reports and act on players"},
    )
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(permission)
    return group


def make_moderator(user_model: Any, username: str) -> Any:
    from tests.conftest import _make_user

    user = _make_user(user_model, username)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(moderators_group())
    return user


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def open_reports(reported: Any) -> list[Report]:
    return list(Report.objects.filter(reported=reported, status=Report.Status.OPEN))
