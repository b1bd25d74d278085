from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("lobby", "0006_profile_name_key_unique"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="four_colour_deck",
            field=models.BooleanField(
                default=False,
                help_text="Clubs green and diamonds blue, so no two suits share a colour.",
                verbose_name="four-colour deck",
            ),
        ),
        migrations.AddField(
            model_name="profile",
            name="sound_on",
            field=models.BooleanField(default=False, verbose_name="sound at the table"),
        ),
    ]
