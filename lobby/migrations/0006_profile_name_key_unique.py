from __future__ import annotations

from django.db import migrations, models


class Migration(migrations.Migration):
    # Apart from 0005: PostgreSQL refuses to alter a table in the transaction that just
    # updated its rows while their deferred foreign-key checks are pending.
    dependencies = [("lobby", "0005_profile_name_key")]

    operations = [
        migrations.AddConstraint(
            model_name="profile",
            constraint=models.UniqueConstraint(fields=["name_key"], name="display_name_unique_look"),
        ),
    ]
