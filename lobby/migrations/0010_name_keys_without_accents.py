from __future__ import annotations

from django.db import migrations

from ginsite.lib import names


def refill(apps, schema_editor):
    # The key now ignores the accents of Latin, Greek and Cyrillic letters (ginsite.lib.names), so
    # "Bób" and "bob" made before it have one key. Nobody is renamed: a name whose key does not
    # change keeps it, and of the others the later ones that meet a taken key get one of their
    # own, marked with the profile's id, as in 0005. All changed keys are parked first, so that
    # no update meets the unique constraint on a key another row is about to give up.
    Profile = apps.get_model("lobby", "Profile")
    current = dict(Profile.objects.values_list("pk", "display_name"))
    stored = dict(Profile.objects.values_list("pk", "name_key"))
    new = {pk: names.key(name) for pk, name in current.items()}
    unchanged = {
        pk for pk, key in new.items() if stored[pk].rpartition("#")[0] == key or stored[pk] == key
    }
    taken = {stored[pk] for pk in unchanged}
    changing = sorted(set(new) - unchanged)
    for pk in changing:
        Profile.objects.filter(pk=pk).update(name_key=f"#moving#{pk}")
    for pk in changing:
        key = new[pk]
        if key in taken:
            key = f"{key}#{pk}"
        taken.add(key)
        Profile.objects.filter(pk=pk).update(name_key=key)


class Migration(migrations.Migration):
    dependencies = [("lobby", "0009_challenge_counter")]

    operations = [migrations.RunPython(refill, migrations.RunPython.noop)]
