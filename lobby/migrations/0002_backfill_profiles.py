from __future__ import annotations

from django.db import migrations


def backfill(apps, schema_editor):
    # Users created before profiles existed get one, named like the post_save signal would.
    User = apps.get_model("auth", "User")
    Profile = apps.get_model("lobby", "Profile")
    taken = {name.lower() for name in Profile.objects.values_list("display_name", flat=True)}
    taken.add("bea")
    for user in User.objects.filter(profile__isnull=True):
        base = user.username.strip()[:20]
        if len(base) < 2:
            base = "player"
        candidate, n = base, 1
        while candidate.lower() in taken:
            n += 1
            candidate = f"{base}{n}"
        taken.add(candidate.lower())
        Profile.objects.create(user=user, display_name=candidate)


class Migration(migrations.Migration):
    dependencies = [("lobby", "0001_profile")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
