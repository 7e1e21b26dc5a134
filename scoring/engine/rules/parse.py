"""Reading a rule set from plain data (JSON), refusing anything impossible with a Vietnamese message."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import MISSING, fields
from enum import StrEnum
from typing import Any

from scoring.engine.cuoc import CATALOGUE
from scoring.engine.cuoc.base import TO_TOM_GAMES
from scoring.engine.errors import RuleError
from scoring.engine.games import GameSlug, ScoringFamily
from scoring.engine.rules.enums import (
    BaoRegime,
    ChanGaNuoiContribution,
    GaContribution,
    GaNgoaiKind,
    GaTrongRegime,
    KinhTuCoPolicy,
)
from scoring.engine.rules.frozen import FrozenMap
from scoring.engine.rules.model import CuocValue, RuleSet

__all__ = ["parse_rules"]

_FAMILY_GAMES: Mapping[ScoringFamily, frozenset[GameSlug]] = {
    ScoringFamily.TO_TOM: TO_TOM_GAMES,
    ScoringFamily.TAI_BAN: frozenset({GameSlug.TAI_BAN}),
    ScoringFamily.CHAN: frozenset({GameSlug.CHAN}),
    ScoringFamily.PHOM: frozenset({GameSlug.PHOM}),
}

Parser = Callable[[str, Any], Any]


def _fail(key: str, what: str, value: Any) -> RuleError:
    return RuleError(f"Luật: '{key}' phải là {what} (nhận được {value!r}).")


def _int(key: str, value: Any, minimum: int = 0, maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise _fail(key, f"số nguyên ≥ {minimum}", value)
    if maximum is not None and value > maximum:
        raise _fail(key, f"số nguyên từ {minimum} đến {maximum}", value)
    return value


def _opt_int(minimum: int) -> Parser:
    def parse(key: str, value: Any) -> int | None:
        return None if value is None else _int(key, value, minimum)

    return parse


def _bool(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _fail(key, "true hoặc false", value)
    return value


def _str(key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(key, "một chuỗi không rỗng", value)
    return value


def _enum(enum: type[StrEnum]) -> Parser:
    def parse(key: str, value: Any) -> StrEnum:
        try:
            return enum(value)
        except ValueError:
            allowed = ", ".join(f"'{m.value}'" for m in enum)
            raise _fail(key, f"một trong {allowed}", value) from None

    return parse


def _mapping(key: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(key, "một bảng (object JSON)", value)
    return value


def _slug(key: str, value: Any) -> str:
    if not isinstance(value, str) or value not in CATALOGUE:
        close = difflib.get_close_matches(str(value), list(CATALOGUE), n=3)
        hint = f" Có phải ý bạn là: {', '.join(close)}?" if close else ""
        raise RuleError(f"Luật: '{key}' có cước không tồn tại {value!r}.{hint}")
    return value


def _tieng_list(key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        raise _fail(key, "một danh sách cước", value)
    for entry in value:
        if not isinstance(entry, str):
            raise _fail(key, "một danh sách cước", value)
        for part in entry.split("+"):
            _slug(key, part)
    return tuple(value)


def _int_list(key: str, value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple):
        raise _fail(key, "một danh sách số nguyên ≥ 0", value)
    return tuple(_int(f"{key}[{i}]", v) for i, v in enumerate(value))


def _amounts(enum: type[StrEnum]) -> Parser:
    def parse(key: str, value: Any) -> FrozenMap[int]:
        table = _mapping(key, value)
        allowed = {m.value for m in enum}
        for name in table:
            if name not in allowed:
                raise _fail(f"{key}.{name}", f"một khóa trong {', '.join(sorted(allowed))}", name)
        return FrozenMap({name: _int(f"{key}.{name}", v) for name, v in table.items()})

    return parse


def _subsumes(key: str, value: Any) -> FrozenMap[tuple[str, ...]]:
    table = _mapping(key, value)
    return FrozenMap(
        {_slug(key, k): tuple(_slug(f"{key}.{k}", s) for s in _list(key, v)) for k, v in table.items()}
    )


def _list(key: str, value: Any) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise _fail(key, "một danh sách", value)
    return list(value)


def parse_cuoc_value(key: str, value: Any, *, table_entry: bool) -> CuocValue:
    """One CuocValue from ``{"main": …, "dich": …, "boi": …}``; ``dich`` defaults to ``boi``."""
    data = _mapping(key, value)
    for name in data:
        if name not in ("main", "dich", "boi"):
            raise _fail(f"{key}.{name}", "một trong 'main', 'dich', 'boi'", name)
    main = _opt_int(0)(f"{key}.main", data.get("main"))
    boi = _opt_int(1)(f"{key}.boi", data.get("boi"))
    if table_entry and main is None and boi is None:
        raise RuleError(f"Luật: '{key}' cần 'main' (giá trị cố định) hoặc 'boi' (bội số).")
    raw_dich = data.get("dich")
    if raw_dich is None:
        raw_dich = boi
    if raw_dich is None:
        raise RuleError(f"Luật: '{key}' thiếu 'dich' (số dịch khi đi kèm cước cao hơn).")
    return CuocValue(main=main, dich=_int(f"{key}.dich", raw_dich), boi=boi)


def _cuoc_table(key: str, value: Any) -> FrozenMap[CuocValue]:
    table = _mapping(key, value)
    return FrozenMap(
        {
            _slug(key, slug): parse_cuoc_value(f"{key}.{slug}", v, table_entry=True)
            for slug, v in table.items()
        }
    )


def _thong(key: str, value: Any) -> CuocValue | None:
    return None if value is None else parse_cuoc_value(key, value, table_entry=False)


_PARSERS: Mapping[str, Parser] = {
    "preset": _str,
    "name": _str,
    "description": _str,
    "family": _enum(ScoringFamily),
    "suong": _int,
    "dich": _int,
    "cuoc": _cuoc_table,
    "tu_tru_cong_dich": _bool,
    "thong": _thong,
    "has_khoi": _bool,
    "khoi_main_offset": lambda k, v: _int(k, v, 0, 3),
    "khoi_dich_offset": lambda k, v: _int(k, v, 0, 3),
    "subsumes": _subsumes,
    "kinh_tu_co_policy": _enum(KinhTuCoPolicy),
    "gom": _opt_int(1),
    "gom_topup_below": _opt_int(1),
    "gom_topup_amount": _int,
    "ga_ngoai": _enum(GaNgoaiKind),
    "ga_ngoai_tieng": _tieng_list,
    "ga_trong": _enum(GaTrongRegime),
    "ga_trong_amounts": _amounts(GaContribution),
    "ga_trong_tieng": _tieng_list,
    "den_lang_amount": _opt_int(0),
    "bao_regime": _enum(BaoRegime),
    "lanh_lang_breaks_streak": _bool,
    "chiu_pays": _bool,
    "chan_ga_points": _int,
    "chan_ga_cuoc": _tieng_list,
    "chan_fine_cuoc": _slug,
    "chan_ga_nuoi_amounts": _amounts(ChanGaNuoiContribution),
    "chan_ga_nuoi_chi_chi_factor": lambda k, v: _int(k, v, 1),
    "chan_ga_nuoi_tieng": _tieng_list,
    "stake": lambda k, v: _int(k, v, 1),
    "phom_rank_stakes": _int_list,
    "phom_u_stake": _int,
}


def _check_keys(data: Mapping[str, Any]) -> None:
    for key in data:
        if key not in _PARSERS:
            close = difflib.get_close_matches(str(key), list(_PARSERS), n=3)
            hint = f" Có phải ý bạn là: {', '.join(repr(c) for c in close)}?" if close else ""
            raise RuleError(f"Luật: không có khóa '{key}'.{hint}")
    for f in fields(RuleSet):
        if f.name not in data and f.default is MISSING and f.default_factory is MISSING:
            raise RuleError(f"Luật: thiếu khóa '{f.name}'.")


def _check_family(rules: RuleSet) -> None:
    games = _FAMILY_GAMES[rules.family]
    for slug in rules.cuoc:
        if not CATALOGUE[slug].games & games:
            raise RuleError(
                f"Luật: 'cuoc.{slug}' ({CATALOGUE[slug].name}) không thuộc các trò chơi của bộ luật "
                f"'{rules.family.value}'."
            )
    if rules.family is ScoringFamily.CHAN and rules.chan_fine_cuoc not in rules.cuoc:
        raise RuleError(f"Luật: 'chan_fine_cuoc' = '{rules.chan_fine_cuoc}' không có giá trị trong 'cuoc'.")


def parse_rules(data: Mapping[str, Any]) -> RuleSet:
    """Validate ``data`` (every key known, every value possible) and build the RuleSet."""
    if not isinstance(data, Mapping):
        raise RuleError(f"Luật phải là một bảng (object JSON), nhận được {type(data).__name__}.")
    _check_keys(data)
    values = {key: _PARSERS[key](key, value) for key, value in data.items()}
    rules = RuleSet(**values)
    _check_family(rules)
    return rules
