"""Named presets (data files under ``scoring/engine/presets/``) and overrides on top of them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from scoring.engine.errors import N_, RuleError, shown
from scoring.engine.games import ScoringFamily
from scoring.engine.rules.model import RuleSet

__all__ = ["PRESETS", "family_of", "load_rules", "merge_overrides", "preset_data"]

#: Slugs of the shipped presets (docs/rules.md §6, §11, §12, §13).
PRESETS: tuple[str, ...] = ("luat-2005", "suong4-dich2", "suong2-dich1", "hoi-50", "chan", "tai-ban", "phom")

#: Fields that are tables: an override merges into them key by key instead of replacing them.
_MERGED_TABLES = ("cuoc", "subsumes", "ga_trong_amounts", "chan_ga_nuoi_amounts", "custom_cuoc")


def _unknown_preset(slug: object) -> RuleError:
    valid = [f"'{p}'" for p in PRESETS]
    shown_slug = slug[:60] if isinstance(slug, str) else shown(slug)
    return RuleError(
        N_("Không có bộ luật '{slug}'. Các bộ luật có sẵn: {valid}."), slug=shown_slug, valid=valid
    )


@cache
def _preset(slug: str) -> RuleSet:
    raw = (resources.files("scoring.engine") / "presets" / f"{slug}.json").read_text("utf-8")
    return RuleSet.from_dict({"preset": slug, **json.loads(raw)})


def preset_data(slug: str) -> dict[str, Any]:
    """Every field of a preset as plain JSON data (a fresh dict)."""
    if slug not in PRESETS:
        raise _unknown_preset(slug)
    return _preset(slug).to_dict()


def family_of(spec: Mapping[str, Any]) -> ScoringFamily:
    """The scoring family of ``load_rules(spec)`` for a ``{"preset": slug, ...overrides}`` already
    validated (a saved village set's), without building the rules: the family the overrides name
    (a top-level field replaces the preset's), else the preset's. A page listing every saved set
    reads it from the stored overrides instead of each set's whole rules."""
    family = spec.get("family")
    if family is not None:
        return ScoringFamily(family)
    slug = spec.get("preset")
    if not isinstance(slug, str) or slug not in PRESETS:
        raise _unknown_preset(slug)
    return _preset(slug).family


def _merge_cuoc_entry(base: Any, override: Any) -> Any:
    """Merge one cước override; giving ``main`` alone drops the base ``boi`` and vice versa."""
    if not isinstance(base, Mapping) or not isinstance(override, Mapping):
        return override
    merged = dict(base)
    if "main" in override and "boi" not in override:
        merged["boi"] = None
    if "boi" in override and "main" not in override:
        merged["main"] = None
    merged.update(override)
    return merged


def merge_overrides(base: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``overrides`` applied; tables merge key by key, a None entry removes it."""
    merged = dict(base)
    for key, value in overrides.items():
        if (
            key not in _MERGED_TABLES
            or not isinstance(value, Mapping)
            or not isinstance(base.get(key), Mapping)
        ):
            merged[key] = value
            continue
        table = dict(base[key])
        for name, entry in value.items():
            if entry is None:
                table.pop(name, None)
            elif key == "cuoc":
                table[name] = _merge_cuoc_entry(table.get(name), entry)
            else:
                table[name] = entry
        merged[key] = table
    return merged


def load_rules(spec: str | Mapping[str, Any] | RuleSet) -> RuleSet:
    """A rule set from a preset slug, or from ``{"preset": slug, ...overrides}``.

    Overrides replace top-level fields (``"suong": 3``, ``"stake": 20``) and merge into tables
    (``{"cuoc": {"thap_dieu": {"main": 16}}}``; ``{"cuoc": {"xuyen": None}}`` removes a cước).
    A snapshot (``RuleSet.to_dict()``) is best restored with :meth:`RuleSet.from_dict`.
    Raises RuleError (Vietnamese, naming the key) for an unknown preset, key or impossible value.
    """
    if isinstance(spec, RuleSet):
        return spec
    if isinstance(spec, str):
        if spec not in PRESETS:
            raise _unknown_preset(spec)
        return _preset(spec)
    if not isinstance(spec, Mapping):
        raise RuleError(
            N_("Luật phải là tên bộ luật hoặc một bảng, nhận được {type}."), type=type(spec).__name__
        )
    slug = spec.get("preset")
    if slug is None:
        raise RuleError(N_("Luật: thiếu khóa 'preset' (tên bộ luật gốc, ví dụ 'luat-2005')."))
    if not isinstance(slug, str) or slug not in PRESETS:
        raise _unknown_preset(slug)
    overrides = {k: v for k, v in spec.items() if k != "preset"}
    if not overrides:
        return _preset(slug)
    return RuleSet.from_dict(merge_overrides(preset_data(slug), overrides))
