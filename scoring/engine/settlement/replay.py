"""The pure replay of a sitting: the ``manage.py replay`` / ``POST /api/v1/replay`` contract.

Request (see ``tests/data/replay_cases.json``)::

    {"game": "to-tom-5", "rules": "luat-2005" | {...}, "mode": "quang" | "gom",
     "players": ["An", ...], "van": [{...}, ...],
     "gom": 10, "ga_ngoai": {"kind": "don", "tieng": [...]},
     "ga_trong": {"regime": "lang", "amounts": {...}, "tieng": [...]}}

The optional top-level ``gom``, ``ga_ngoai`` and ``ga_trong`` override the rule set.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from scoring.engine.errors import RuleError, SettlementError
from scoring.engine.rules import RuleSet, load_rules, merge_overrides

from .engine import make_table, settle_sitting
from .parse import parse_van

__all__ = ["REPLAY_KEYS", "replay"]

#: Keys of a replay request.
REPLAY_KEYS = frozenset({"game", "rules", "mode", "players", "van", "gom", "ga_ngoai", "ga_trong"})
_REQUIRED = ("game", "rules", "players", "van")
_GA_NGOAI_KEYS = {"kind": "ga_ngoai", "tieng": "ga_ngoai_tieng"}
_GA_TRONG_KEYS = {"regime": "ga_trong", "amounts": "ga_trong_amounts", "tieng": "ga_trong_tieng"}

RulesResolver = Callable[[Any], RuleSet]


def _check_keys(request: Mapping[str, Any]) -> None:
    unknown = sorted(set(request) - REPLAY_KEYS)
    if unknown:
        raise SettlementError(
            f"Khóa không hợp lệ: {', '.join(unknown)}. Các khóa được dùng: {', '.join(sorted(REPLAY_KEYS))}."
        )
    missing = [key for key in _REQUIRED if key not in request]
    if missing:
        raise SettlementError(f"Thiếu khóa bắt buộc: {', '.join(missing)}.")


def _sub_overrides(request: Mapping[str, Any], key: str, names: Mapping[str, str]) -> dict[str, Any]:
    value = request.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise RuleError(f"'{key}' phải là một đối tượng với các khóa {', '.join(names)}.")
    unknown = sorted(set(value) - set(names))
    if unknown:
        raise RuleError(f"'{key}': khóa không hợp lệ {', '.join(unknown)}; dùng {', '.join(names)}.")
    return {names[k]: v for k, v in value.items()}


def rules_with_overrides(request: Mapping[str, Any], resolve: RulesResolver = load_rules) -> RuleSet:
    """The request's rule set with its top-level ``gom`` / ``ga_ngoai`` / ``ga_trong`` applied."""
    rules = resolve(request["rules"])
    overrides: dict[str, Any] = {}
    if request.get("gom") is not None:
        overrides["gom"] = request["gom"]
    overrides |= _sub_overrides(request, "ga_ngoai", _GA_NGOAI_KEYS)
    overrides |= _sub_overrides(request, "ga_trong", _GA_TRONG_KEYS)
    if not overrides:
        return rules
    data = merge_overrides(rules.to_dict(), overrides)
    return RuleSet.from_dict(data)


def replay(request: Mapping[str, Any], *, resolve_rules: RulesResolver = load_rules) -> dict[str, Any]:
    """Replay a whole sitting from its recorded ván; the answer of the replay contract.

    Returns ``{"balances", "pool", "ga_trong", "hoi", "van"}``. Bad input raises a
    SettlementError / RuleError / CuocError / GameError whose message names the ván and the key.
    """
    if not isinstance(request, Mapping):
        raise SettlementError("Yêu cầu replay phải là một đối tượng JSON.")
    _check_keys(request)
    players = request["players"]
    if not isinstance(players, list):
        raise SettlementError("'players' phải là danh sách tên người chơi theo thứ tự chỗ ngồi.")
    vans = request["van"]
    if not isinstance(vans, list):
        raise SettlementError("'van' phải là danh sách các ván.")
    table = make_table(
        request["game"], rules_with_overrides(request, resolve_rules), request.get("mode", "quang")
    )
    state, settlements = settle_sitting(
        players,
        (parse_van(v, players, i) for i, v in enumerate(vans, start=1)),
        game=table.game,
        rules=table.rules,
        mode=table.mode,
    )
    return {
        "balances": state.balance_map(),
        "pool": state.pool,
        "ga_trong": state.ga_trong,
        "hoi": [h.to_dict() for h in state.hoi],
        "van": [s.to_dict() for s in settlements],
    }
