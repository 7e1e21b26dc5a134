"""Rule-set services: snapshots (what a ván was scored under) and villages' own rule sets, each
with an owner and numbered, immutable versions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import DatabaseError, IntegrityError, transaction
from django.utils.translation import gettext

from scoring.engine import N_, PRESETS, RuleError, RuleSet, load_rules, merge_overrides
from scoring.models import Club, RuleSetSnapshot, VillageRuleSet, VillageRuleSetVersion
from scoring.names import clean_name, name_key
from scoring.services.people import acting_user
from scoring.text import vi_slugify


def snapshot_for(*, rules: RuleSet) -> RuleSetSnapshot:
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
                slug=spec[:60],
                presets=list(PRESETS),
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


class RuleSetTaken(RuleError):
    """The name is another owner's rule set, which the caller may not change."""

    code = "rule_set_taken"


def _owner_phrase(village: VillageRuleSet) -> tuple[str, str]:
    """(whose set it is, who may save a new version of it), as the refusal says them."""
    if village.owner_club_id is not None:
        club = village.owner_club.name
        return (gettext("của %(owner)s") % {"owner": club}, gettext("chủ sổ của %(owner)s") % {"owner": club})
    if village.owner_user_id is not None:
        return (
            gettext("của %(owner)s") % {"owner": village.owner_user.get_username()},
            gettext("người lập ra nó"),
        )
    return gettext("chung"), gettext("quản trị viên")


def _may_change(by: Any, village: VillageRuleSet) -> bool:
    return by is None or bool(by.has_perm("scoring.change_rule_set", village))


@transaction.atomic
def village_rules_save(
    *,
    name: str,
    preset: str,
    overrides: Mapping[str, Any],
    description: str = "",
    slug: str = "",
    by: Any = None,
    owner_club: Club | None = None,
) -> VillageRuleSet:
    """Create a village rule set (its version 1), or save a new version of one ``by`` may change.

    ``by``: the account saving it (``None``: the app itself, e.g. the demo loader; trusted). A new
    set belongs to ``owner_club`` (whose organisers manage it: ``by`` must be one) or else to ``by``.
    The set of the same name (its slug, or its name as people read it: :func:`scoring.names.name_key`)
    gets a new version if ``by`` may change it (``scoring.change_rule_set``: the owner's managers,
    staff), else the save is refused with :class:`RuleSetTaken`. A version is never edited: the
    sittings opened with an earlier one keep its snapshot (``Sitting.rules``), so their points never
    change. Saving what the newest version already says writes nothing. The engine validates the
    rules before anything is stored.
    """
    name = clean_name(name, what=gettext("lệ làng"), limit=120, empty=gettext("Hãy đặt tên cho lệ làng."))
    if by is not None and not getattr(by, "is_authenticated", False):
        raise RuleError(N_("Cần đăng nhập để lưu lệ làng."))
    if preset not in PRESETS:
        raise RuleError(N_("Không có bộ luật gốc '{preset}'."), preset=preset)
    slug = vi_slugify(slug or name)[:60].strip("-") or "le-lang"
    if slug in PRESETS:
        raise RuleError(N_("Mã '{slug}' trùng với một bộ luật có sẵn; hãy chọn tên khác."), slug=slug)
    description = (description or "").strip() if isinstance(description, str) else ""
    overrides = dict(overrides)
    snapshot = snapshot_for(rules=load_rules({"preset": preset, **overrides}))
    found = VillageRuleSet.objects.select_for_update(of=("self",)).select_related("owner_club", "owner_user")
    village = found.filter(slug=slug).first() or found.filter(name_key=name_key(name)).first()
    if village is None:
        return _create(
            name=name,
            slug=slug,
            preset=preset,
            overrides=overrides,
            description=description,
            snapshot=snapshot,
            by=by,
            owner_club=owner_club,
        )
    if not _may_change(by, village):
        whose, who = _owner_phrase(village)
        raise RuleSetTaken(
            N_(
                "Đã có lệ làng “{name}” (mã {slug}) {whose}: chỉ {who} mới lưu được phiên bản mới. "
                "Hãy đặt một tên khác cho lệ làng của bạn."
            ),
            name=village.name,
            slug=village.slug,
            whose=whose,
            who=who,
        )
    if (village.preset, village.overrides, village.description, village.snapshot_id) == (
        preset,
        overrides,
        description,
        snapshot.pk,
    ):
        return village
    number = village.version + 1
    VillageRuleSetVersion.objects.create(
        rule_set=village,
        number=number,
        preset=preset,
        overrides=overrides,
        description=description,
        snapshot=snapshot,
        created_by=acting_user(user=by),
    )
    village.version, village.preset, village.overrides = number, preset, overrides
    village.description, village.snapshot = description, snapshot
    village.save(update_fields=["version", "preset", "overrides", "description", "snapshot", "updated_at"])
    return village


def _create(
    *,
    name: str,
    slug: str,
    preset: str,
    overrides: dict[str, Any],
    description: str,
    snapshot: RuleSetSnapshot,
    by: Any,
    owner_club: Club | None,
) -> VillageRuleSet:
    if owner_club is not None and by is not None and not by.has_perm("scoring.manage_club", owner_club):
        raise RuleError(
            N_("Bạn không lập được lệ làng cho “{club}”: chỉ chủ sổ của nơi đó mới lập được."),
            club=owner_club.name,
        )
    try:
        with transaction.atomic():
            village = VillageRuleSet.objects.create(
                name=name,
                slug=slug,
                owner_club=owner_club,
                owner_user=None if owner_club else acting_user(user=by),
                version=1,
                preset=preset,
                overrides=overrides,
                description=description,
                snapshot=snapshot,
            )
    except IntegrityError as exc:  # a concurrent save of the same slug
        raise RuleError(N_("Lệ làng '{slug}' vừa được lưu bởi người khác; hãy thử lại."), slug=slug) from exc
    VillageRuleSetVersion.objects.create(
        rule_set=village,
        number=1,
        preset=preset,
        overrides=overrides,
        description=description,
        snapshot=snapshot,
        created_by=acting_user(user=by),
    )
    return village
