"""Reading a recorded ván from loose JSON into a :class:`VanRecord`, with Vietnamese errors.

Every error names the ván by its 1-based number and the bad key
("Ván 3: không có người chơi 'Bin'").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scoring.engine.errors import SettlementError

from .types import BaoRegime, Fault, GaEvent, VanRecord

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


def _fail(number: int, message: str) -> SettlementError:
    return SettlementError(f"Ván {number}: {message}")


def _player(value: Any, key: str, players: Sequence[str], number: int) -> str:
    if not isinstance(value, str):
        raise _fail(number, f"'{key}' phải là tên một người chơi (nhận được {value!r}).")
    if value not in players:
        raise _fail(number, f"không có người chơi '{value}' (khóa '{key}').")
    return value


def _optional_player(data: Mapping[str, Any], key: str, players: Sequence[str], number: int) -> str | None:
    value = data.get(key)
    return None if value is None else _player(value, key, players, number)


def _player_list(data: Mapping[str, Any], key: str, players: Sequence[str], number: int) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise _fail(number, f"'{key}' phải là một danh sách tên người chơi.")
    names = tuple(_player(v, key, players, number) for v in value)
    if len(set(names)) != len(names):
        raise _fail(number, f"'{key}' có tên người chơi lặp lại.")
    return names


def _cuoc_list(value: Any, key: str, number: int) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(number, f'\'{key}\' phải là một danh sách cước, ví dụ ["tom", "leo"].')
    return tuple(v.strip().lower() for v in value)


def _enum(value: Any, key: str, enum: Callable[[str], Any], choices: Sequence[str], number: int) -> Any:
    try:
        return enum(str(value).strip().lower())
    except ValueError:
        raise _fail(
            number, f"'{key}' không hợp lệ: {value!r}. Giá trị hợp lệ: {', '.join(choices)}."
        ) from None


def _positive_int(value: Any, key: str, number: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _fail(number, f"'{key}' phải là số nguyên dương (nhận được {value!r}).")
    return value


def _ga_event(item: Any, players: Sequence[str], number: int) -> GaEvent:
    if not isinstance(item, Mapping):
        raise _fail(number, 'mỗi phần tử của \'ga\' phải là một đối tượng {"kind", "player", "count"}.')
    unknown = sorted(set(item) - _GA_KEYS)
    if unknown:
        raise _fail(number, f"khóa không hợp lệ trong 'ga': {', '.join(unknown)}.")
    kind = item.get("kind")
    if not isinstance(kind, str) or not kind.strip():
        raise _fail(number, "mỗi gà trong 'ga' cần 'kind' (ví dụ \"nhai\", \"quan_lo\").")
    if "player" not in item:
        raise _fail(number, f"gà '{kind}' cần 'player'.")
    return GaEvent(
        kind=kind.strip().lower(),
        player=_player(item["player"], "ga.player", players, number),
        count=_positive_int(item.get("count", 1), "ga.count", number),
        chi_chi=bool(item.get("chi_chi", False)),
    )


def _ga_list(data: Mapping[str, Any], players: Sequence[str], number: int) -> tuple[GaEvent, ...]:
    value = data.get("ga", [])
    if not isinstance(value, list):
        raise _fail(number, "'ga' phải là một danh sách.")
    return tuple(_ga_event(item, players, number) for item in value)


def _result(data: Mapping[str, Any], number: int) -> str | None:
    value = data.get("result")
    if value is None:
        return None
    if value != "hoa":
        raise _fail(number, f"'result' chỉ nhận \"hoa\" (hòa), nhận được {value!r}.")
    return "hoa"


def parse_van(data: Any, players: Sequence[str], number: int) -> VanRecord:
    """Read one ván; raise :class:`SettlementError` naming the ván and the key on bad input."""
    if not isinstance(data, Mapping):
        raise _fail(number, "mỗi ván phải là một đối tượng JSON.")
    unknown = sorted(set(data) - VAN_KEYS)
    if unknown:
        raise _fail(
            number,
            f"khóa không hợp lệ: {', '.join(unknown)}. Các khóa được dùng: {', '.join(sorted(VAN_KEYS))}.",
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
        stake=None if stake is None else _positive_int(stake, "stake", number),
        ranks=_player_list(data, "ranks", players, number),
        den=_optional_player(data, "den", players, number),
        dau_ke=_optional_player(data, "dau_ke", players, number),
    )
