"""Reading a recorded ván from loose JSON into a :class:`VanRecord`, with Vietnamese errors.

Every error names the ván by its 1-based number and the bad key
("Ván 3: không có người chơi 'Bin'").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scoring.engine import bounds
from scoring.engine.errors import N_, shown

from .types import BaoRegime, Fault, GaEvent, VanRecord, van_error

__all__ = ["VAN_KEYS", "parse_van"]

#: Keys a recorded ván may use.
VAN_KEYS = frozenset(
    {
        "winner",
        "cuoc",
        "declared",
        "discarder",
        "chiu",
        "fault",
        "result",
        "bao",
        "regime",
        "ga",
        "den_lang",
        "stake",
        "ranks",
        "den",
        "dau_ke",
    }
)
_GA_KEYS = frozenset({"kind", "player", "count", "chi_chi"})


def _player(value: Any, key: str, players: Sequence[str], number: int) -> str:
    if not isinstance(value, str):
        raise van_error(
            number, N_("'{key}' phải là tên một người chơi (nhận được {value})."), key=key, value=shown(value)
        )
    if value not in players:
        raise van_error(
            number,
            N_("không có người chơi '{name}' (khóa '{key}')."),
            name=value[: bounds.PLAYER_NAME],
            key=key,
        )
    return value


def _optional_player(data: Mapping[str, Any], key: str, players: Sequence[str], number: int) -> str | None:
    value = data.get(key)
    return None if value is None else _player(value, key, players, number)


def _player_list(data: Mapping[str, Any], key: str, players: Sequence[str], number: int) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or len(value) > bounds.PLAYERS:
        raise van_error(number, N_("'{key}' phải là một danh sách tên người chơi."), key=key)
    names = tuple(_player(v, key, players, number) for v in value)
    if len(set(names)) != len(names):
        raise van_error(number, N_("'{key}' có tên người chơi lặp lại."), code="player_repeated", key=key)
    return names


def _cuoc_list(value: Any, key: str, number: int) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise van_error(number, N_('\'{key}\' phải là một danh sách cước, ví dụ ["tom", "leo"].'), key=key)
    if len(value) > bounds.CUOC_LIST:
        raise van_error(
            number,
            N_("'{key}' có nhiều nhất {most} cước (nhận được {n})."),
            key=key,
            most=bounds.CUOC_LIST,
            n=len(value),
        )
    return tuple(v.strip().lower() for v in value)


def _enum(value: Any, key: str, enum: Callable[[str], Any], choices: Sequence[str], number: int) -> Any:
    try:
        return enum(str(value).strip().lower())
    except ValueError:
        raise van_error(
            number,
            N_("'{key}' không hợp lệ: {value}. Giá trị hợp lệ: {choices}."),
            key=key,
            value=shown(value),
            choices=list(choices),
        ) from None


def _count(value: Any, key: str, number: int, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise van_error(
            number,
            N_("'{key}' phải là số nguyên từ 1 đến {most} (nhận được {value})."),
            key=key,
            most=most,
            value=shown(value),
        )
    return value


def _ga_event(item: Any, players: Sequence[str], number: int) -> GaEvent:
    if not isinstance(item, Mapping):
        raise van_error(
            number, N_('mỗi phần tử của \'ga\' phải là một đối tượng {"kind", "player", "count"}.')
        )
    unknown = sorted(str(k)[:40] for k in set(item) - _GA_KEYS)
    if unknown:
        raise van_error(number, N_("khóa không hợp lệ trong 'ga': {keys}."), keys=unknown[:5])
    kind = item.get("kind")
    if not isinstance(kind, str) or not kind.strip():
        raise van_error(number, N_("mỗi gà trong 'ga' cần 'kind' (ví dụ \"nhai\", \"quan_lo\")."))
    if "player" not in item:
        raise van_error(number, N_("gà '{kind}' cần 'player'."), kind=kind[:40])
    chi_chi = item.get("chi_chi", False)
    if not isinstance(chi_chi, bool):
        raise van_error(
            number,
            N_("'{key}' phải là true hoặc false (nhận được {value})."),
            key="ga.chi_chi",
            value=shown(chi_chi),
        )
    return GaEvent(
        kind=kind.strip().lower()[:40],
        player=_player(item["player"], "ga.player", players, number),
        count=_count(item.get("count", 1), "ga.count", number, bounds.GA_COUNT),
        chi_chi=chi_chi,
    )


def _ga_list(data: Mapping[str, Any], players: Sequence[str], number: int) -> tuple[GaEvent, ...]:
    value = data.get("ga", [])
    if not isinstance(value, list) or len(value) > bounds.CUOC_LIST:
        raise van_error(
            number, N_("'ga' phải là một danh sách (tối đa {most} phần tử)."), most=bounds.CUOC_LIST
        )
    return tuple(_ga_event(item, players, number) for item in value)


def _result(data: Mapping[str, Any], number: int) -> str | None:
    value = data.get("result")
    if value is None:
        return None
    if value != "hoa":
        raise van_error(number, N_("'result' chỉ nhận \"hoa\" (hòa), nhận được {value}."), value=shown(value))
    return "hoa"


def parse_van(data: Any, players: Sequence[str], number: int) -> VanRecord:
    """Read one ván; raise :class:`SettlementError` naming the ván and the key on bad input."""
    if not isinstance(data, Mapping):
        raise van_error(number, N_("mỗi ván phải là một đối tượng JSON."))
    unknown = sorted(str(k)[:40] for k in set(data) - VAN_KEYS)
    if unknown:
        raise van_error(
            number,
            N_("khóa không hợp lệ: {keys}. Các khóa được dùng: {allowed}."),
            keys=unknown[:5],
            allowed=sorted(VAN_KEYS),
        )
    fault = data.get("fault")
    regime = data.get("regime")
    declared = data.get("declared")
    stake = data.get("stake")
    return VanRecord(
        number=number,
        winner=_optional_player(data, "winner", players, number),
        cuoc=_cuoc_list(data.get("cuoc", []), "cuoc", number),
        declared=None if declared is None else _cuoc_list(declared, "declared", number),
        discarder=_optional_player(data, "discarder", players, number),
        chiu=_player_list(data, "chiu", players, number),
        fault=None if fault is None else _enum(fault, "fault", Fault, [f.value for f in Fault], number),
        result=_result(data, number),
        bao=_optional_player(data, "bao", players, number),
        regime=None
        if regime is None
        else _enum(regime, "regime", BaoRegime, [r.value for r in BaoRegime], number),
        ga=_ga_list(data, players, number),
        den_lang=_player_list(data, "den_lang", players, number),
        stake=None if stake is None else _count(stake, "stake", number, bounds.STAKE),
        ranks=_player_list(data, "ranks", players, number),
        den=_optional_player(data, "den", players, number),
        dau_ke=_optional_player(data, "dau_ke", players, number),
    )
