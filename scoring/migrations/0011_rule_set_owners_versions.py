"""Village rule sets have an owner and versions (issue 20, finding 1): any signed-in account could
overwrite any village rule set by saving one of the same name.

* ``owner_club`` / ``owner_user``: whose managers change the set (at most one). A set stored before
  gets as owner the account that first saved it, as its history records (else none: staff only).
* ``VillageRuleSetVersion``: every saved state, numbered; the history of each stored set becomes its
  versions 1…n (each state it was saved with; the current state is the last). The database refuses
  UPDATE and DELETE of a version (PostgreSQL and SQLite triggers, as the ledger's; on SQLite a flush,
  the test suite's teardown, still empties the table: ``totom_site/sqlite``).
* ``name_key``: the set's name as people read it (``scoring.names.name_key``).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from scoring.names import name_key


def fill(apps, schema_editor):
    rule_sets = apps.get_model("scoring", "VillageRuleSet")
    versions = apps.get_model("scoring", "VillageRuleSetVersion")
    history = apps.get_model("scoring", "HistoricalVillageRuleSet")
    snapshots = set(apps.get_model("scoring", "RuleSetSnapshot").objects.values_list("pk", flat=True))
    for rule_set in rule_sets.objects.order_by("pk"):
        states, owner = [], None
        for row in history.objects.filter(id=rule_set.pk).exclude(history_type="-").order_by("history_date", "history_id"):
            owner = owner or row.history_user_id
            state = (row.preset, row.overrides or {}, row.description, row.snapshot_id)
            if row.snapshot_id in snapshots and (not states or states[-1][0] != state):
                states.append((state, row.history_user_id, row.history_date))
        current = (rule_set.preset, rule_set.overrides or {}, rule_set.description, rule_set.snapshot_id)
        if not states or states[-1][0] != current:
            states.append((current, None, rule_set.updated_at))
        for number, ((preset, overrides, description, snapshot), user, when) in enumerate(states, start=1):
            version = versions.objects.create(rule_set_id=rule_set.pk, number=number, preset=preset,
                                              overrides=overrides, description=description, snapshot_id=snapshot,
                                              created_by_id=user)
            versions.objects.filter(pk=version.pk).update(created_at=when)  # before the triggers below
        rule_sets.objects.filter(pk=rule_set.pk).update(name_key=name_key(rule_set.name), owner_user_id=owner,
                                                        version=len(states))


PG_FORWARD = r"""
CREATE FUNCTION scoring_rulesetversion_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'Phiên bản lệ làng không được sửa hay xóa (%): hãy lưu một phiên bản mới.', TG_OP
    USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER scoring_rulesetversion_immutable BEFORE UPDATE OR DELETE ON scoring_villagerulesetversion
  FOR EACH ROW EXECUTE FUNCTION scoring_rulesetversion_immutable();
"""
PG_BACKWARD = r"""
DROP TRIGGER IF EXISTS scoring_rulesetversion_immutable ON scoring_villagerulesetversion;
DROP FUNCTION IF EXISTS scoring_rulesetversion_immutable();
"""
SQLITE_FORWARD = [
    """CREATE TRIGGER scoring_rulesetversion_no_update BEFORE UPDATE ON scoring_villagerulesetversion
       BEGIN SELECT RAISE(ABORT, 'Phiên bản lệ làng không được sửa: hãy lưu một phiên bản mới.'); END""",
    """CREATE TRIGGER scoring_rulesetversion_no_delete BEFORE DELETE ON scoring_villagerulesetversion
       WHEN NOT sotom_ledger_flushing()
       BEGIN SELECT RAISE(ABORT, 'Phiên bản lệ làng không được xóa.'); END""",
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS scoring_rulesetversion_no_update",
    "DROP TRIGGER IF EXISTS scoring_rulesetversion_no_delete",
]


def _triggers(forward):
    def run(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        statements = {"postgresql": [PG_FORWARD if forward else PG_BACKWARD],
                      "sqlite": SQLITE_FORWARD if forward else SQLITE_BACKWARD}.get(vendor, [])
        with schema_editor.connection.cursor() as cursor:  # literal '%' in the SQL: no parameters
            for statement in statements:
                cursor.execute(statement)
    return run


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0010_ledger_amounts_64_bit'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='VillageRuleSetVersion',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField(verbose_name='phiên bản')),
                ('description', models.TextField(blank=True, verbose_name='ghi chú')),
                ('preset', models.CharField(max_length=40, verbose_name='bộ luật gốc')),
                ('overrides', models.JSONField(blank=True, default=dict, verbose_name='thay đổi so với bộ luật gốc')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='lưu lúc')),
            ],
            options={
                'verbose_name': 'phiên bản lệ làng',
                'verbose_name_plural': 'phiên bản lệ làng',
                'ordering': ('rule_set', 'number'),
            },
        ),
        migrations.AddField(
            model_name='historicalvillageruleset',
            name='name_key',
            field=models.CharField(db_index=True, default='', editable=False, max_length=255, verbose_name='khóa so tên'),
        ),
        migrations.AddField(
            model_name='historicalvillageruleset',
            name='owner_club',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='scoring.club', verbose_name='của làng / câu lạc bộ'),
        ),
        migrations.AddField(
            model_name='historicalvillageruleset',
            name='owner_user',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='của người'),
        ),
        migrations.AddField(
            model_name='historicalvillageruleset',
            name='version',
            field=models.PositiveIntegerField(default=1, verbose_name='phiên bản'),
        ),
        migrations.AddField(
            model_name='villageruleset',
            name='name_key',
            field=models.CharField(db_index=True, default='', editable=False, max_length=255, verbose_name='khóa so tên'),
        ),
        migrations.AddField(
            model_name='villageruleset',
            name='owner_club',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='rule_sets', to='scoring.club', verbose_name='của làng / câu lạc bộ'),
        ),
        migrations.AddField(
            model_name='villageruleset',
            name='owner_user',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='của người'),
        ),
        migrations.AddField(
            model_name='villageruleset',
            name='version',
            field=models.PositiveIntegerField(default=1, verbose_name='phiên bản'),
        ),
        migrations.AddConstraint(
            model_name='villageruleset',
            constraint=models.CheckConstraint(condition=models.Q(('owner_club__isnull', True), ('owner_user__isnull', True), _connector='OR'), name='scoring_villageruleset_one_owner'),
        ),
        migrations.AddField(
            model_name='villagerulesetversion',
            name='created_by',
            field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='người lưu'),
        ),
        migrations.AddField(
            model_name='villagerulesetversion',
            name='rule_set',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='versions', to='scoring.villageruleset', verbose_name='lệ làng'),
        ),
        migrations.AddField(
            model_name='villagerulesetversion',
            name='snapshot',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='scoring.rulesetsnapshot'),
        ),
        migrations.AddConstraint(
            model_name='villagerulesetversion',
            constraint=models.UniqueConstraint(fields=('rule_set', 'number'), name='scoring_rulesetversion_once'),
        ),
        migrations.AddConstraint(
            model_name='villagerulesetversion',
            constraint=models.CheckConstraint(condition=models.Q(('number__gte', 1)), name='scoring_rulesetversion_number_positive'),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.RunPython(_triggers(True), _triggers(False)),
    ]
