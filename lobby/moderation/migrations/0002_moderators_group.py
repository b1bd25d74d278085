"""The "Moderators" group, holding the permission to moderate: a staff account added to it
(in the admin) sees the moderators' pages (lobby.moderation.access)."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def make_group(apps: Any, schema_editor: Any) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    # Django makes permissions after all migrations ran; this one is needed now.
    content_type, _ = ContentType.objects.get_or_create(app_label="moderation", model="report")
    permission, _ = Permission.objects.get_or_create(
        content_type=content_type,
        codename="moderate",
        defaults={"name": "Can review reports and act on players"},
    )
    group, _ = Group.objects.get_or_create(name="Moderators")
    group.permissions.add(permission)


def remove_group(apps: Any, schema_editor: Any) -> None:
    apps.get_model("auth", "Group").objects.filter(name="Moderators").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(make_group, remove_group)]
