"""Verdicts of a hand check, and the comparison of declared cước with what the cards show."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from scoring.engine.cuoc import get_cuoc
from scoring.engine.errors import N_, CuocError, shown
from scoring.engine.games import Game

__all__ = ["Verdict", "XuongDiff", "cuoc_name", "cuoc_names", "diff_declared", "validate_declared"]


class Verdict(StrEnum):
    """What a hand check concludes, heaviest first."""

    QUA_BON_QUAN = "qua_bon_quan"  #: more than 4 copies of one card kind: no deck has such a hand
    SAI_SO_QUAN = "sai_so_quan"  #: wrong number of cards
    KHONG_TRON = "khong_tron"  #: junk left: no arrangement covers every card
    KHONG_LUNG = "khong_lung"  #: complete, without the lưng (Chắn: the 6 chắn) the game needs
    XUONG_THUA = "xuong_thua"  #: declared a cước the cards do not show
    XUONG_THIEU = "xuong_thieu"  #: left out a cước the cards show
    OK = "ok"  #: a valid win, declared as the cards show

    @property
    def label(self) -> str:
        """Vietnamese label."""
        return _LABELS[self]

    @property
    def valid_win(self) -> bool:
        """Whether the cards make a winning hand (the declaration aside)."""
        return self in (Verdict.XUONG_THUA, Verdict.XUONG_THIEU, Verdict.OK)


_LABELS = {
    Verdict.QUA_BON_QUAN: "Quá 4 quân một loại",
    Verdict.SAI_SO_QUAN: "Sai số quân",
    Verdict.KHONG_TRON: "Không tròn bài",
    Verdict.KHONG_LUNG: "Không đủ lưng",
    Verdict.XUONG_THUA: "Xướng thừa",
    Verdict.XUONG_THIEU: "Xướng thiếu",
    Verdict.OK: "Hợp lệ",
}

#: Slugs naming a plain win: they add nothing to a declaration.
PLAIN_WIN = frozenset({"suong", "xuong"})
#: Variants of Xuyên: a hand allowing several may declare any one of them (seed 000 §14.4).
XUYEN_FAMILY = frozenset({"xuyen", "xuyen_nam_gian", "xuyen_bi_tu"})


def validate_declared(game: Game, declared: Iterable[str]) -> tuple[str, ...]:
    """Normalise declared slugs; refuse unknown ones and ones of another game (CuocError)."""
    out = []
    for raw in declared:
        if not isinstance(raw, str):
            raise CuocError(N_("Cước xướng phải là chuỗi, nhận được {value}."), value=shown(raw))
        cuoc = get_cuoc(raw)
        if not cuoc.in_game(game.slug):
            raise CuocError(N_("Cước '{name}' không có trong {game}."), name=cuoc.name, game=game.name_vi)
        out.append(cuoc.slug)
    return tuple(out)


_NAMES: dict[str, str] = {}


def cuoc_name(slug: str) -> str:
    """Vietnamese name of a cước."""
    name = _NAMES.get(slug)
    if name is None:
        name = _NAMES[slug] = get_cuoc(slug).name
    return name


def cuoc_names(slugs: Iterable[str]) -> str:
    """Vietnamese names of cước, repeats shown as "2 × Lèo"."""
    counts: dict[str, int] = {}
    for slug in slugs:
        counts[slug] = counts.get(slug, 0) + 1
    return ", ".join(f"{n} × {cuoc_name(s)}" if n > 1 else cuoc_name(s) for s, n in counts.items())


@dataclass(frozen=True, slots=True)
class XuongDiff:
    """How a declaration differs from one reading of the hand."""

    #: Declared but not shown by the cards (xướng thừa), with repeats.
    thua: tuple[str, ...]
    #: Shown by the cards but not declared (xướng thiếu), with repeats.
    thieu: tuple[str, ...]

    @property
    def key(self) -> tuple[int, int]:
        """Sort key: fewer extra cước first, then fewer missing ones."""
        return len(self.thua), len(self.thieu)


def diff_declared(
    declared: Sequence[str],
    shown: Sequence[str],
    judged: frozenset[str],
    *,
    count_repeats: frozenset[str] = frozenset(),
    optional: frozenset[str] = frozenset(),
) -> XuongDiff:
    """Compare a declaration with the cước one reading of the cards shows.

    Only slugs in ``judged`` are compared (the others are taken as declared). A slug in
    ``count_repeats`` is compared with its count (Chắn's Lèo); elsewhere declaring a cước once
    covers every repeat of it, and declaring it more often than the cards show is xướng thừa.
    Slugs in ``optional`` may be left out without xướng thiếu.
    """
    want = Counter(s for s in declared if s in judged and s not in PLAIN_WIN)
    have = Counter(s for s in shown if s in judged and s not in PLAIN_WIN)
    thua: list[str] = []
    thieu: list[str] = []
    for slug in sorted(set(want) | set(have)):
        d, h = want[slug], have[slug]
        if d > h:
            thua.extend([slug] * (d - h))
        elif h > d and slug not in optional and (slug in count_repeats or d == 0):
            thieu.extend([slug] * (h - d if slug in count_repeats else 1))
    if "chi_nay" in declared and "leo" in thieu:
        thieu.remove("leo")  # Chi Nẩy carries its own Lèo (RULES §5)
    return XuongDiff(tuple(thua), tuple(thieu))
