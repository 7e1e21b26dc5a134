"""The games of the Tổ Tôm family the scorebook keeps (docs/rules.md §2).

A :class:`Game` holds the facts about a game that do not change from village to village: how many
play, how the cards are dealt, what a winning hand looks like and when a ván is a draw. What a win
is *worth* is a rule set's business (:mod:`scoring.engine.rules`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from scoring.engine.errors import N_, GameError, shown

__all__ = [
    "GAMES",
    "MIN_CHAN",
    "DeckKind",
    "Game",
    "GameSlug",
    "ScoringFamily",
    "get_game",
]


#: Chắn: the fewest chắn (pairs of identical cards) of a winning hand (seed 002: "phải có >= 6 chắn").
MIN_CHAN = 6


class GameSlug(StrEnum):
    """The slug of a game, as used in URLs, the API, the CLI and fixtures."""

    TO_TOM_5 = "to-tom-5"
    TO_TOM_4 = "to-tom-4"
    TAI_BAN = "tai-ban"
    TO_TOM_DIEM = "to-tom-diem"
    CHAN = "chan"
    PHOM = "phom"


class ScoringFamily(StrEnum):
    """How a game's wins are valued; a rule set belongs to one family."""

    #: Tổ Tôm (Bí Ngũ, Bí Tứ, Điếm): suông, dịch, Tứ Trụ, Thông and the Khôi ladder.
    TO_TOM = "to_tom"
    #: Tài Bàn: three cước, multiples of the stake N.
    TAI_BAN = "tai_ban"
    #: Chắn: điểm of the largest cước + dịch of the others + gà.
    CHAN = "chan"
    #: Phỏm: a ranking game, settled by rank (no cước).
    PHOM = "phom"


class DeckKind(StrEnum):
    """Which deck a game is played with (docs/rules.md §1)."""

    TO_TOM = "to_tom"  #: 120 cards, 30 kinds × 4
    CHAN = "chan"  #: 100 cards, the Tổ Tôm deck without the five yêu kinds but Chi Chi
    WESTERN = "western"  #: 52-card western deck


@dataclass(frozen=True, slots=True)
class Game:
    """One game of the family; every field is a fact of docs/rules.md §2."""

    #: The game's slug.
    slug: GameSlug
    #: Vietnamese name shown to players ("Tổ Tôm Bí Ngũ").
    name_vi: str
    #: Fewest players at a table.
    players_min: int
    #: Most players at a table.
    players_max: int
    #: Cards in each part dealt (the nọc is one more part in Tổ Tôm).
    deal: int
    #: Cards the dealer (nhà cái) starts with.
    dealer_deal: int
    #: Cards in a winning hand including the winning card; None when the game has no fixed size.
    hand_size: int | None
    #: Fewest lưng a winning hand needs (Tài Bàn counts them); None when lưng do not exist.
    min_lung: int | None
    #: Cards left in the nọc at which the ván is a draw (hòa); None when the seeds do not say.
    draw_at: int | None
    #: Cards each folding player removes from the nọc before the draw point (0: no folding).
    fold_draw_extra: int
    #: The deck used.
    deck: DeckKind
    #: How wins are valued.
    family: ScoringFamily

    def accepts_players(self, n_players: int) -> bool:
        """Whether ``n_players`` may sit at a table of this game."""
        return self.players_min <= n_players <= self.players_max


_GAME_LIST: tuple[Game, ...] = (
    Game(
        GameSlug.TO_TOM_5, "Tổ Tôm Bí Ngũ", 5, 5, 20, 21, 21, 1, 5, 3, DeckKind.TO_TOM, ScoringFamily.TO_TOM
    ),
    Game(GameSlug.TO_TOM_4, "Tổ Tôm Bí Tứ", 4, 4, 24, 25, 25, 2, 8, 3, DeckKind.TO_TOM, ScoringFamily.TO_TOM),
    Game(GameSlug.TAI_BAN, "Tài Bàn", 3, 3, 30, 31, 31, 9, 14, 3, DeckKind.TO_TOM, ScoringFamily.TAI_BAN),
    Game(
        GameSlug.TO_TOM_DIEM, "Tổ Tôm Điếm", 5, 5, 20, 21, 21, 1, 1, 3, DeckKind.TO_TOM, ScoringFamily.TO_TOM
    ),
    Game(GameSlug.CHAN, "Chắn", 2, 4, 19, 20, 20, None, None, 0, DeckKind.CHAN, ScoringFamily.CHAN),
    Game(GameSlug.PHOM, "Phỏm", 2, 4, 9, 10, None, None, None, 0, DeckKind.WESTERN, ScoringFamily.PHOM),
)

#: Every game by slug, in the order of docs/rules.md §2.
GAMES: Mapping[GameSlug, Game] = MappingProxyType({g.slug: g for g in _GAME_LIST})


def get_game(slug: str | GameSlug | Game) -> Game:
    """The game with this slug (case-insensitive); a :class:`Game` is returned as is.

    Raises :class:`GameError` (Vietnamese, listing the valid slugs) for an unknown slug.
    """
    if isinstance(slug, Game):
        return slug
    if isinstance(slug, str):
        key = slug.strip().lower()
        for game_slug, game in GAMES.items():
            if game_slug.value == key:
                return game
    valid = ", ".join(f"'{s.value}'" for s in GAMES)
    shown_slug = slug if isinstance(slug, str) else shown(slug)
    raise GameError(
        N_("Không có trò chơi '{slug}'. Các trò chơi hợp lệ: {valid}."), slug=shown_slug, valid=valid
    )
