"""The leaderboard keeps its last failed recompute (when and why) for the organiser's page."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0006_registration_own_link'),
    ]

    operations = [
        migrations.AddField(
            model_name='leaderboard',
            name='failed_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='lần tính lỗi gần nhất'),
        ),
        migrations.AddField(
            model_name='leaderboard',
            name='failure',
            field=models.TextField(blank=True, verbose_name='lỗi khi tính'),
        ),
    ]
