from __future__ import annotations

from django.db import migrations, models

from ginsite.lib import names


def fill(apps, schema_editor):
    # Every existing name gets its key. Names that already look alike (made before keys
    # existed) are kept as they are: the later ones get a key of their own, marked with the
    # profile's id, so nobody is renamed and nothing new may look like any of them.
    Profile = apps.get_model("lobby", "Profile")
    seen: set[str] = set()
    for profile in Profile.objects.order_by("pk"):
        key = names.key(profile.display_name)
        if key in seen:
            key = f"{key}#{profile.pk}"
        seen.add(key)
        profile.name_key = key
        profile.save(update_fields=["name_key"])


class Migration(migrations.Migration):
    dependencies = [("lobby", "0004_api")]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="name_key",
            field=models.TextField(default="", editable=False),
            preserve_default=False,
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
