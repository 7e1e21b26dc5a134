"""The shape of one cước (a kind of win) in the catalogue."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from scoring.engine.cuoc.needs import Needs
from scoring.engine.frozen import FrozenMap
from scoring.engine.games import GameSlug

__all__ = ["Cuoc", "Derivability", "TO_TOM_GAMES", "khoi_name"]

#: The three games scored with the Tổ Tôm table (suông, dịch, Tứ Trụ, Khôi).
TO_TOM_GAMES: frozenset[GameSlug] = frozenset({GameSlug.TO_TOM_5, GameSlug.TO_TOM_4, GameSlug.TO_TOM_DIEM})


class Derivability(StrEnum):
    """What the hand checker needs to know to confirm a cước."""

    #: Visible in the final cards alone (Thập Điều, Tôm, Tám Đỏ…).
    CARDS = "cards"
    #: Needs the waiting hand and the winning card (Bạch Thủ, Xuyên…).
    WAIT = "wait"
    #: Needs the history of the ván or of the sitting (Thông, Chi Nẩy, Có Chíu…).
    HISTORY = "history"
    #: An event at the table, only the scorekeeper knows it (Thiên Ù, Vọng, Địa Ù…).
    EVENT = "event"


@dataclass(frozen=True, slots=True)
class Cuoc:
    """One cước: its slug, its Vietnamese name, the games it exists in, how it is confirmed.

    Values are not here: they belong to a rule set (:class:`scoring.engine.rules.RuleSet`).
    """

    #: The slug, exactly as written in docs/rules.md (``thap_dieu``).
    slug: str
    #: Vietnamese name shown to players ("Thập Điều").
    name: str
    #: The games in which this cước can be declared.
    games: frozenset[GameSlug]
    #: What is needed to confirm it.
    derivable: Derivability
    #: One sentence, in Vietnamese, saying what the cước is.
    description: str
    #: Whether it is one of the Tứ Trụ (valued as a multiple of a plain win in Tổ Tôm).
    tu_tru: bool = False
    #: Whether it comes from a streak of wins (Thông, Khôi) rather than from the hand.
    streak: bool = False
    #: What it needs of the winning hand (:mod:`scoring.engine.cuoc.needs`), in every game…
    needs: Needs = field(default_factory=Needs)
    #: …unless a game has its own (Suông means 9–18 lưng with a khàn only in Tài Bàn).
    needs_in: FrozenMap[Needs] = field(default_factory=FrozenMap)

    def in_game(self, game: GameSlug | str) -> bool:
        """Whether the cước exists in ``game``."""
        return GameSlug(game) in self.games

    def needs_for(self, game: GameSlug | str) -> Needs:
        """What the cước needs of a winning hand of ``game``."""
        return self.needs_in.get(str(game), self.needs)


_KHOI_NAMES = {3: "Tam", 4: "Tứ", 5: "Ngũ", 6: "Lục", 7: "Thất", 8: "Bát", 9: "Cửu", 10: "Thập"}


def khoi_name(n: int) -> str:
    """Vietnamese name of the N-Khôi for a streak of ``n`` ≥ 3 wins ("Tam Khôi", …, "11 Khôi")."""
    return f"{_KHOI_NAMES.get(n, str(n))} Khôi"
