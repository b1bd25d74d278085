import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_signs_of_life"),
    ]

    operations = [
        migrations.CreateModel(
            name="HandOrder",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "sort",
                    models.CharField(
                        choices=[
                            ("melds", "melds first"),
                            ("suit", "by suit"),
                            ("rank", "by rank"),
                        ],
                        default="melds",
                        max_length=8,
                    ),
                ),
                ("cards", models.JSONField(blank=True, default=list)),
                ("hand_number", models.PositiveIntegerField(default=0)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "seat",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="hand_order",
                        to="games.seat",
                    ),
                ),
            ],
        ),
    ]
