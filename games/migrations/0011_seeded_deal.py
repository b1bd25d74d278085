from django.db import migrations, models


def schemes(apps, schema_editor):
    """Matches dealt by the first fair scheme (the players' seeds cut the stock) say so: 1;
    the older ones stay 0, and both keep replaying as they were dealt."""
    Match = apps.get_model("games", "Match")
    Match.objects.filter(fair=True).update(fair_scheme=1)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_lesson"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="fair_scheme",
            field=models.PositiveSmallIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(schemes, migrations.RunPython.noop),
        migrations.RemoveField(model_name="match", name="fair"),
        migrations.RenameField(model_name="match", old_name="fair_scheme", new_name="fair"),
        # Every match made from now on is dealt from both players' seeds.
        migrations.AlterField(
            model_name="match",
            name="fair",
            field=models.PositiveSmallIntegerField(default=2, editable=False),
        ),
        migrations.AddField(
            model_name="match",
            name="deal_due",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(
                condition=models.Q(("deal_due__isnull", False)),
                fields=["deal_due"],
                name="matches_awaiting_seeds",
            ),
        ),
    ]
