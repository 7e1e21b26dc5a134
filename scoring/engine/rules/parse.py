"""Reading a rule set from plain data (JSON), refusing anything impossible with a Vietnamese message.

Every number has a bound (:mod:`scoring.engine.bounds`, listed in docs/bounds.md), checked here
before a rule set exists.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import MISSING, fields
from enum import StrEnum
from typing import Any

from scoring.engine import bounds
from scoring.engine.cuoc import CATALOGUE
from scoring.engine.cuoc.needs import parse_needs
from scoring.engine.errors import N_, Msg, RuleError, shown
from scoring.engine.frozen import FrozenMap
from scoring.engine.games import ScoringFamily
from scoring.engine.rules.enums import (
    BaoRegime,
    BareTriple,
    ChanGaNuoi,
    ChanGaNuoiContribution,
    GaContribution,
    GaDauHoiQuang,
    GaNgoaiKind,
    GaTrongRegime,
    KinhTuCoPolicy,
    MainCuoc,
    MainTie,
    Repeat,
)
from scoring.engine.rules.model import FAMILY_GAMES, CuocValue, CustomCuoc, RuleSet

__all__ = ["parse_cuoc_value", "parse_rules"]

#: Parses one key's value; ``known`` is every cước slug the rule set may name (its own too).
Parser = Callable[[str, Any, frozenset[str]], Any]

_SLUG = re.compile(r"^[a-z][a-z0-9_]{1,39}$")
#: Slugs a custom cước may not take (line names of breakdowns, streaks).
_RESERVED = frozenset({"ga", "khoi", "thong"})


def _fail(key: str, what: str | Msg, value: Any) -> RuleError:
    return RuleError(
        N_("Luật: '{key}' phải là {what} (nhận được {value})."), key=key, what=what, value=shown(value)
    )


#: False while a stored snapshot is read back (:meth:`RuleSet.from_dict` ``bounded=False``).
_BOUNDED: ContextVar[bool] = ContextVar("rules_bounded", default=True)


def _int(key: str, value: Any, minimum: int = 0, maximum: int = bounds.POINTS) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise _fail(key, Msg(N_("số nguyên từ {lo} đến {hi}"), lo=minimum, hi=maximum), value)
    if value > maximum and _BOUNDED.get():
        raise _fail(key, Msg(N_("số nguyên từ {lo} đến {hi}"), lo=minimum, hi=maximum), value)
    return value


def _bounded(minimum: int, maximum: int) -> Parser:
    def parse(key: str, value: Any, known: frozenset[str]) -> int:
        return _int(key, value, minimum, maximum)

    return parse


def _opt_bounded(minimum: int, maximum: int) -> Parser:
    def parse(key: str, value: Any, known: frozenset[str]) -> int | None:
        return None if value is None else _int(key, value, minimum, maximum)

    return parse


def _bool(key: str, value: Any, known: frozenset[str]) -> bool:
    if not isinstance(value, bool):
        raise _fail(key, Msg(N_("true hoặc false")), value)
    return value


def _text(key: str, value: Any, limit: int = bounds.TEXT) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise _fail(key, Msg(N_("một chuỗi không rỗng, tối đa {n} ký tự"), n=limit), value)
    return value


def _str(key: str, value: Any, known: frozenset[str]) -> str:
    return _text(key, value)


def _enum(enum: type[StrEnum]) -> Parser:
    def parse(key: str, value: Any, known: frozenset[str]) -> StrEnum:
        try:
            return enum(value)
        except (ValueError, TypeError):
            allowed = [f"'{m.value}'" for m in enum]
            raise _fail(key, Msg(N_("một trong {names}"), names=allowed), value) from None

    return parse


def _mapping(key: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(key, Msg(N_("một bảng (object JSON)")), value)
    return value


def _slug(key: str, value: Any, known: frozenset[str]) -> str:
    if not isinstance(value, str) or value not in known:
        close = difflib.get_close_matches(str(value)[:40], sorted(known), n=3)
        hint = Msg(N_(" Có phải ý bạn là: {names}?"), names=close) if close else ""
        raise RuleError(
            N_("Luật: '{key}' có cước không tồn tại {value}.{hint}"), key=key, value=shown(value), hint=hint
        )
    return value


def _list(key: str, value: Any, limit: int = bounds.CUOC_LIST) -> list[Any]:
    if not isinstance(value, list | tuple) or len(value) > limit:
        raise _fail(key, Msg(N_("một danh sách (tối đa {n} phần tử)"), n=limit), value)
    return list(value)


def _tieng_list(key: str, value: Any, known: frozenset[str]) -> tuple[str, ...]:
    for entry in _list(key, value):
        if not isinstance(entry, str):
            raise _fail(key, Msg(N_("một danh sách cước")), value)
        for part in entry.split("+"):
            _slug(key, part, known)
    return tuple(value)


def _int_list(key: str, value: Any, known: frozenset[str]) -> tuple[int, ...]:
    return tuple(_int(f"{key}[{i}]", v) for i, v in enumerate(_list(key, value, 4)))


def _amounts(enum: type[StrEnum]) -> Parser:
    def parse(key: str, value: Any, known: frozenset[str]) -> FrozenMap[int]:
        table = _mapping(key, value)
        allowed = sorted(m.value for m in enum)
        for name in table:
            if name not in allowed:
                raise _fail(f"{key}.{name}", Msg(N_("một khóa trong {names}"), names=allowed), name)
        return FrozenMap({name: _int(f"{key}.{name}", v, 0, bounds.GA_AMOUNT) for name, v in table.items()})

    return parse


def _subsumes(key: str, value: Any, known: frozenset[str]) -> FrozenMap[tuple[str, ...]]:
    table = _mapping(key, value)
    return FrozenMap(
        {
            _slug(key, k, known): tuple(_slug(f"{key}.{k}", s, known) for s in _list(key, v))
            for k, v in table.items()
        }
    )


def parse_cuoc_value(key: str, value: Any, *, table_entry: bool) -> CuocValue:
    """One CuocValue from ``{"main": …, "dich": …, "boi": …}``; ``dich`` defaults to ``boi``."""
    data = _mapping(key, value)
    for name in data:
        if name not in ("main", "dich", "boi"):
            raise _fail(
                f"{key}.{name}", Msg(N_("một trong {names}"), names=["'main'", "'dich'", "'boi'"]), name
            )
    main = None if data.get("main") is None else _int(f"{key}.main", data["main"])
    boi = None if data.get("boi") is None else _int(f"{key}.boi", data["boi"], 1, bounds.BOI)
    if table_entry and main is None and boi is None:
        raise RuleError(N_("Luật: '{key}' cần 'main' (giá trị cố định) hoặc 'boi' (bội số)."), key=key)
    raw_dich = data.get("dich")
    if raw_dich is None:
        raw_dich = boi
    if raw_dich is None:
        raise RuleError(N_("Luật: '{key}' thiếu 'dich' (số dịch khi đi kèm cước cao hơn)."), key=key)
    return CuocValue(main=main, dich=_int(f"{key}.dich", raw_dich, 0, bounds.DICH), boi=boi)


def _cuoc_table(key: str, value: Any, known: frozenset[str]) -> FrozenMap[CuocValue]:
    table = _mapping(key, value)
    return FrozenMap(
        {
            _slug(key, slug, known): parse_cuoc_value(f"{key}.{slug}", v, table_entry=True)
            for slug, v in table.items()
        }
    )


def _thong(key: str, value: Any, known: frozenset[str]) -> CuocValue | None:
    return None if value is None else parse_cuoc_value(key, value, table_entry=False)


def _custom_cuoc(key: str, value: Any, known: frozenset[str]) -> FrozenMap[CustomCuoc]:
    table = _mapping(key, value)
    if len(table) > bounds.CUOC_LIST:
        raise _fail(key, Msg(N_("một bảng tối đa {n} cước"), n=bounds.CUOC_LIST), f"{len(table)} cước")
    out: dict[str, CustomCuoc] = {}
    for slug, entry in table.items():
        if not isinstance(slug, str) or not _SLUG.match(slug) or slug in CATALOGUE or slug in _RESERVED:
            raise RuleError(
                N_(
                    "Luật: cước riêng '{slug}' cần một mã mới: chữ thường không dấu, số và '_', 2 đến 40 ký tự, "
                    "không trùng cước có sẵn."
                ),
                slug=shown(slug),
            )
        data = _mapping(f"{key}.{slug}", entry)
        for name in data:
            if name not in ("name", "description", "needs"):
                names = ["'name'", "'description'", "'needs'"]
                raise _fail(f"{key}.{slug}.{name}", Msg(N_("một trong {names}"), names=names), name)
        if "name" not in data:
            raise RuleError(N_("Luật: thiếu khóa '{key}'."), key=f"{key}.{slug}.name")
        description = data.get("description", "")
        out[slug] = CustomCuoc(
            name=_text(f"{key}.{slug}.name", data["name"], bounds.NAME),
            needs=parse_needs(f"{key}.{slug}.needs", data.get("needs", {})),
            description=_text(f"{key}.{slug}.description", description) if description else "",
        )
    return FrozenMap(out)


_PARSERS: Mapping[str, Parser] = {
    "preset": _str,
    "name": lambda k, v, _: _text(k, v, bounds.NAME),
    "description": _str,
    "family": _enum(ScoringFamily),
    "suong": _bounded(0, bounds.UNIT),
    "dich": _bounded(0, bounds.UNIT),
    "cuoc": _cuoc_table,
    "tu_tru_cong_dich": _bool,
    "thong": _thong,
    "has_khoi": _bool,
    "khoi_main_offset": _bounded(0, 3),
    "khoi_dich_offset": _bounded(0, 3),
    "subsumes": _subsumes,
    "kinh_tu_co_policy": _enum(KinhTuCoPolicy),
    "gom": _opt_bounded(1, bounds.GOM),
    "gom_topup_below": _opt_bounded(1, bounds.GOM),
    "gom_topup_amount": _bounded(0, bounds.POINTS),
    "ga_ngoai": _enum(GaNgoaiKind),
    "ga_ngoai_tieng": _tieng_list,
    "ga_trong": _enum(GaTrongRegime),
    "ga_trong_amounts": _amounts(GaContribution),
    "ga_trong_tieng": _tieng_list,
    "den_lang_amount": _opt_bounded(0, bounds.POINTS),
    "bao_regime": _enum(BaoRegime),
    "lanh_lang_breaks_streak": _bool,
    "chiu_pays": _bool,
    "chan_ga_points": _bounded(0, bounds.POINTS),
    "chan_ga_cuoc": _tieng_list,
    "chan_fine_cuoc": _slug,
    "chan_ga_nuoi_amounts": _amounts(ChanGaNuoiContribution),
    "chan_ga_nuoi_chi_chi_factor": _bounded(1, bounds.FACTOR),
    "chan_ga_nuoi_tieng": _tieng_list,
    "stake": _bounded(1, bounds.STAKE),
    "phom_rank_stakes": _int_list,
    "phom_u_stake": _bounded(0, bounds.POINTS),
    "custom_cuoc": _custom_cuoc,
    "main_cuoc": _enum(MainCuoc),
    "main_tie": _enum(MainTie),
    "tom_leo_repeat": _enum(Repeat),
    "ga_dau_hoi_quang": _enum(GaDauHoiQuang),
    "tai_ban_triple": _enum(BareTriple),
    "chan_ga_nuoi": _enum(ChanGaNuoi),
    "phom_u_khan": _bool,
}


def _check_keys(data: Mapping[str, Any]) -> None:
    for key in data:
        if key not in _PARSERS:
            close = difflib.get_close_matches(str(key)[:40], list(_PARSERS), n=3)
            hint = Msg(N_(" Có phải ý bạn là: {names}?"), names=[repr(c) for c in close]) if close else ""
            raise RuleError(N_("Luật: không có khóa '{key}'.{hint}"), key=str(key)[:40], hint=hint)
    for f in fields(RuleSet):
        if f.name not in data and f.default is MISSING and f.default_factory is MISSING:
            raise RuleError(N_("Luật: thiếu khóa '{key}'."), key=f.name)


def _check_family(rules: RuleSet) -> None:
    games = FAMILY_GAMES[rules.family]
    for slug in rules.cuoc:
        if slug in rules.custom_cuoc:
            continue
        if not CATALOGUE[slug].games & games:
            raise RuleError(
                N_("Luật: 'cuoc.{slug}' ({name}) không thuộc các trò chơi của bộ luật '{family}'."),
                slug=slug,
                name=CATALOGUE[slug].name,
                family=rules.family.value,
            )
    if rules.family is ScoringFamily.CHAN and rules.chan_fine_cuoc not in rules.cuoc:
        raise RuleError(
            N_("Luật: 'chan_fine_cuoc' = '{slug}' không có giá trị trong 'cuoc'."), slug=rules.chan_fine_cuoc
        )


def parse_rules(data: Mapping[str, Any], *, bounded: bool = True) -> RuleSet:
    """Validate ``data`` (every key known, every value possible, every number within its bound
    unless ``bounded`` is False) and build the RuleSet."""
    token = _BOUNDED.set(bounded)
    try:
        return _parse_rules(data)
    finally:
        _BOUNDED.reset(token)


def _parse_rules(data: Mapping[str, Any]) -> RuleSet:
    if not isinstance(data, Mapping):
        raise RuleError(
            N_("Luật phải là một bảng (object JSON), nhận được {type}."), type=type(data).__name__
        )
    _check_keys(data)
    custom = _custom_cuoc("custom_cuoc", data.get("custom_cuoc", {}), frozenset())
    known = frozenset(CATALOGUE) | frozenset(custom)
    values = {key: _PARSERS[key](key, value, known) for key, value in data.items()}
    rules = RuleSet(**values)
    _check_family(rules)
    return rules
