"""Rule-set services: snapshots (what a ván was scored under) and villages' own rule sets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import DatabaseError, IntegrityError, transaction

from scoring.engine.errors import N_, RuleError
from scoring.engine.rules import PRESETS, RuleSet, load_rules, merge_overrides
from scoring.models import RuleSetSnapshot, VillageRuleSet
from scoring.text import vi_slugify


def snapshot_for(rules: RuleSet) -> RuleSetSnapshot:
    """The stored snapshot of exactly these rules (created once per fingerprint)."""
    snapshot, _ = RuleSetSnapshot.objects.get_or_create(
        fingerprint=rules.fingerprint, defaults={"preset": rules.preset, "spec": rules.to_dict()}
    )
    return snapshot


def resolve_rules(spec: Any) -> RuleSet:
    """A rule set from a preset slug, a saved village rule set's slug, or ``{"preset": ..., ...}``.

    ``preset`` in an object may name a village rule set too: its own changes apply first, then
    the object's.
    """
    if isinstance(spec, str):
        if spec in PRESETS:
            return load_rules(spec)
        village = _saved(spec)
        if village is None:
            raise RuleError(
                N_("Không có bộ luật '{slug}'. Bộ luật có sẵn: {presets}, hoặc mã một lệ làng đã lưu."),
                slug=spec[:60], presets=list(PRESETS),
            )
        return village.rules()
    if isinstance(spec, Mapping) and isinstance(spec.get("preset"), str) and spec["preset"] not in PRESETS:
        village = _saved(spec["preset"])
        if village is not None:
            changes = {k: v for k, v in spec.items() if k != "preset"}
            return load_rules(merge_overrides(village.spec(), changes))
    return load_rules(spec)


def _saved(slug: str) -> VillageRuleSet | None:
    """The saved village rule set of that slug; None when there is none (or no database yet:
    the CLI commands work on presets before ``migrate`` has ever run)."""
    try:
        with transaction.atomic():
            return VillageRuleSet.objects.select_related("snapshot").filter(slug=slug).first()
    except DatabaseError:
        return None


@transaction.atomic
def village_rules_save(
    *, name: str, preset: str, overrides: Mapping[str, Any], description: str = "", slug: str = ""
) -> VillageRuleSet:
    """Create or update a village's rule set; the engine validates it before anything is stored."""
    name = name.strip()
    if not name:
        raise RuleError("Hãy đặt tên cho lệ làng.")
    if preset not in PRESETS:
        raise RuleError(f"Không có bộ luật gốc '{preset}'.")
    slug = vi_slugify(slug or name) or "le-lang"
    if slug in PRESETS:
        raise RuleError(f"Mã '{slug}' trùng với một bộ luật có sẵn; hãy chọn tên khác.")
    rules = load_rules({"preset": preset, **overrides})
    snapshot = snapshot_for(rules)
    try:
        with transaction.atomic():
            village, _ = VillageRuleSet.objects.update_or_create(
                slug=slug,
                defaults={
                    "name": name,
                    "preset": preset,
                    "overrides": dict(overrides),
                    "description": description,
                    "snapshot": snapshot,
                },
            )
    except IntegrityError as exc:  # a concurrent save of the same slug
        raise RuleError(f"Lệ làng '{slug}' vừa được lưu bởi người khác; hãy thử lại.") from exc
    return village
