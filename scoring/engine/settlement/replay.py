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

from scoring.engine import bounds
from scoring.engine.errors import N_, RuleError, SettlementError
from scoring.engine.games import GaPot
from scoring.engine.rules import ChanGaNuoi, GaTrongRegime, RuleSet, load_rules, merge_overrides

from .engine import make_terms, settle_sitting
from .parse import parse_van

__all__ = ["REPLAY_KEYS", "replay"]

#: Keys of a replay request.
REPLAY_KEYS = frozenset({"game", "rules", "mode", "players", "van", "gom", "ga_ngoai", "ga_trong"})
_REQUIRED = ("game", "rules", "players", "van")
_GA_NGOAI_KEYS = {"kind": "ga_ngoai", "tieng": "ga_ngoai_tieng"}
_GA_TRONG_KEYS = {"regime": "ga_trong", "amounts": "ga_trong_amounts", "tieng": "ga_trong_tieng"}
#: Chắn's pot is the gà nuôi: the same request keys set its fields.
_GA_NUOI_KEYS = {"regime": "chan_ga_nuoi", "amounts": "chan_ga_nuoi_amounts", "tieng": "chan_ga_nuoi_tieng"}

RulesResolver = Callable[[Any], RuleSet]


def _check_keys(request: Mapping[str, Any]) -> None:
    unknown = sorted(str(k)[:40] for k in set(request) - REPLAY_KEYS)
    if unknown:
        raise SettlementError(
            N_("Khóa không hợp lệ: {keys}. Các khóa được dùng: {allowed}."),
            keys=unknown[:5],
            allowed=sorted(REPLAY_KEYS),
        )
    missing = [key for key in _REQUIRED if key not in request]
    if missing:
        raise SettlementError(N_("Thiếu khóa bắt buộc: {keys}."), keys=missing)


def _sub_overrides(request: Mapping[str, Any], key: str, names: Mapping[str, str]) -> dict[str, Any]:
    value = request.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise RuleError(N_("'{key}' phải là một đối tượng với các khóa {names}."), key=key, names=list(names))
    unknown = sorted(str(k)[:40] for k in set(value) - set(names))
    if unknown:
        raise RuleError(
            N_("'{key}': khóa không hợp lệ {keys}; dùng {names}."),
            key=key,
            keys=unknown[:5],
            names=list(names),
        )
    return {names[k]: v for k, v in value.items()}


def _ga_nuoi_regime(value: Any) -> Any:
    if value in (ChanGaNuoi.NONE, ChanGaNuoi.NUOI):
        return value
    if isinstance(value, str) and value in {r.value for r in GaTrongRegime}:
        return ChanGaNuoi.NONE.value if value == GaTrongRegime.NONE else ChanGaNuoi.NUOI.value
    return value  # refused by the rule set's parser, naming the key


def rules_with_overrides(request: Mapping[str, Any], resolve: RulesResolver = load_rules) -> RuleSet:
    """The request's rule set with its top-level ``gom`` / ``ga_ngoai`` / ``ga_trong`` applied."""
    rules = resolve(request["rules"])
    overrides: dict[str, Any] = {}
    if request.get("gom") is not None:
        overrides["gom"] = request["gom"]
    overrides |= _sub_overrides(request, "ga_ngoai", _GA_NGOAI_KEYS)
    if rules.traits.ga_pot is GaPot.NUOI:
        pot = _sub_overrides(request, "ga_trong", _GA_NUOI_KEYS)
        if "chan_ga_nuoi" in pot:  # any gà trong regime but "none" keeps the gà nuôi
            pot["chan_ga_nuoi"] = _ga_nuoi_regime(pot["chan_ga_nuoi"])
        overrides |= pot
    else:
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
        raise SettlementError(N_("Yêu cầu replay phải là một đối tượng JSON."))
    _check_keys(request)
    players = request["players"]
    if not isinstance(players, list):
        raise SettlementError(N_("'players' phải là danh sách tên người chơi theo thứ tự chỗ ngồi."))
    vans = request["van"]
    if not isinstance(vans, list) or len(vans) > bounds.VAN:
        raise SettlementError(N_("'van' phải là danh sách các ván (tối đa {most} ván)."), most=bounds.VAN)
    table = make_terms(
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
