from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_hand_review"),
    ]

    operations = [
        # Matches that exist were dealt by the old shuffle and must replay the same: False for
        # them, True for every match made from now on.
        migrations.AddField(
            model_name="match",
            name="fair",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.AlterField(
            model_name="match",
            name="fair",
            field=models.BooleanField(default=True, editable=False),
        ),
    ]
