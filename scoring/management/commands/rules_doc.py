"""``python manage.py rules_doc [--check]``: write the generated parts of ``docs/rules.md`` from
the engine's catalogue (games, cước, preset values, the options where villages disagree), so the
reference cannot drift from the code. ``--check`` changes nothing and fails when the file is not
current (the suite runs it: tests/engine/test_rules_doc.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.engine import (
    CATALOGUE,
    GAMES,
    PRESETS,
    BaoRegime,
    BareTriple,
    ChanGaNuoi,
    GaDauHoiQuang,
    KinhTuCoPolicy,
    MainCuoc,
    MainTie,
    Repeat,
    load_rules,
)

DOC = Path(settings.BASE_DIR) / "docs" / "rules.md"
BLOCK = re.compile(r"(<!-- generated:(?P<name>[a-z-]+) -->\n).*?(<!-- /generated -->)", re.S)


def _cell(value: Any) -> str:
    return "—" if value is None else str(value)


def games() -> str:
    rows = [
        "| game | slug | players | deal (dealer) | hand | minimum lưng | draw when the nọc has | family |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for g in GAMES.values():
        players = str(g.players_min) if g.players_min == g.players_max else f"{g.players_min}–{g.players_max}"
        rows.append(
            f"| {g.name_vi} | `{g.slug}` | {players} | {_cell(g.deal)} ({_cell(g.dealer_deal)}) | "
            f"{_cell(g.hand_size)} | {_cell(g.min_lung)} | {_cell(g.draw_at)} | {g.family} |"
        )
    return "\n".join(rows)


def cuoc() -> str:
    rows = [
        "| cước | slug | games | confirmed from | what it is (as the app says it) |",
        "|---|---|---|---|---|",
    ]
    for c in CATALOGUE.values():
        played = ", ".join(f"`{g}`" for g in sorted(c.games))
        marks = " (Tứ Trụ)" if c.tu_tru else (" (streak)" if c.streak else "")
        rows.append(f"| {c.name}{marks} | `{c.slug}` | {played} | {c.derivable} | {c.description} |")
    return "\n".join(rows)


def _value(v: Any, formula: str = "—") -> str:
    """A cước's value as the preset stores it: main points, or a multiple (bội) of the plain win
    (``formula`` when the preset gives neither: Thông's S + D); extra dịch."""
    if v is None:
        return "—"
    main = f"{v.main}" if v.main is not None else (f"×{v.boi}" if v.boi is not None else formula)
    return f"{main} / {v.dich}"


def presets() -> str:
    sets = [load_rules(slug) for slug in PRESETS]
    head = "| cước | " + " | ".join(f"`{r.preset}`" for r in sets) + " |"
    rows = [head, "|---|" + "---|" * len(sets)]
    rows.append("| S (suông) / D (dịch) | " + " | ".join(f"{r.suong} / {r.dich}" for r in sets) + " |")
    rows.append(
        "| Tứ Trụ carry their dịch | "
        + " | ".join("yes" if r.tu_tru_cong_dich else "no" for r in sets)
        + " |"
    )
    rows.append("| Thông | " + " | ".join(_value(r.thong, "S + D") for r in sets) + " |")
    rows.append(
        "| Khôi: main offset / dịch offset | "
        + " | ".join(f"{r.khoi_main_offset} / {r.khoi_dich_offset}" if r.has_khoi else "—" for r in sets)
        + " |"
    )
    for slug, c in CATALOGUE.items():
        if c.streak:
            continue
        cells = [_value(r.cuoc[slug]) if slug in r.cuoc else "—" for r in sets]
        if any(x != "—" for x in cells):
            rows.append(f"| {c.name} `{slug}` | " + " | ".join(cells) + " |")
    return "\n".join(rows)


#: The rule options for the choices the sources disagree on, with the field that holds each.
OPTIONS: list[tuple[str, type, str]] = [
    ("main_cuoc", MainCuoc, "Which cước of a win counts at its main value"),
    ("main_tie", MainTie, "With `main_cuoc = highest`, which of two equal main values is the main one"),
    ("tom_leo_repeat", Repeat, "A Tôm or Lèo declared several times"),
    ("ga_dau_hoi_quang", GaDauHoiQuang, "Gà đầu hội in đánh quăng"),
    ("tai_ban_triple", BareTriple, "Tài Bàn: three identical cards not named as a khàn"),
    ("chan_ga_nuoi", ChanGaNuoi, "Chắn: whether the table keeps the gà nuôi pot"),
    ("kinh_tu_co_policy", KinhTuCoPolicy, "Kính Tứ Cố in đánh gom: its points, or the whole pool (hết hội)"),
    ("bao_regime", BaoRegime, "What a báo during play costs"),
    ("phom_u_khan", bool, "Phỏm: a hand with no phỏm and no cạ is ù khan (wins outright)"),
]


def options() -> str:
    sets = [load_rules(slug) for slug in PRESETS]
    rows = [
        "| choice | rule-set field | possible values | " + " | ".join(f"`{r.preset}`" for r in sets) + " |",
        "|---|---|---|" + "---|" * len(sets),
    ]
    for field, enum, what in OPTIONS:
        if enum is bool:
            values, shown = "`true`, `false`", (lambda v: str(v).lower())
        else:
            values, shown = ", ".join(f"`{m.value}`" for m in enum), str  # type: ignore[attr-defined]
        rows.append(
            f"| {what} | `{field}` | {values} | "
            + " | ".join(f"`{shown(getattr(r, field))}`" for r in sets)
            + " |"
        )
    return "\n".join(rows)


BLOCKS: dict[str, Callable[[], str]] = {"games": games, "cuoc": cuoc, "presets": presets, "options": options}


def render(text: str) -> str:
    found = set()

    def fill(m: re.Match[str]) -> str:
        found.add(m.group("name"))
        return m.group(1) + BLOCKS[m.group("name")]() + "\n" + m.group(3)

    out = BLOCK.sub(fill, text)
    missing = set(BLOCKS) - found
    if missing:
        raise CommandError(f"docs/rules.md has no block for: {', '.join(sorted(missing))}")
    return out


class Command(BaseCommand):
    help = "Write the generated tables of docs/rules.md from the engine's catalogue (--check: only compare)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="Fail if docs/rules.md is not current.")

    def handle(self, *args: Any, **options: Any) -> None:
        text = DOC.read_text(encoding="utf-8")
        fresh = render(text)
        if options["check"]:
            if fresh != text:
                raise CommandError("docs/rules.md is not current: run `python manage.py rules_doc`.")
            return
        DOC.write_text(fresh, encoding="utf-8")
        self.stdout.write(f"Wrote {DOC}.")
