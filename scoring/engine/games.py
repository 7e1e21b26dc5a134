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
    "FAMILY_TRAITS",
    "DeckKind",
    "FamilyTraits",
    "GaPot",
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


class GaPot(StrEnum):
    """The pot a family's gà contributions feed (docs/rules.md, gà)."""

    #: No pot at all (Phỏm).
    NONE = "none"
    #: Gà trong: kept only when the rule set keeps one (Tổ Tôm, Tài Bàn).
    TRONG = "trong"
    #: Gà nuôi (Chắn): always kept, its amounts in the rule set's ``chan_ga_nuoi_*``.
    NUOI = "nuoi"


@dataclass(frozen=True, slots=True)
class FamilyTraits:
    """What sets a scoring family apart, as data: the pages, the API, the offline preview and the
    settlement read these instead of asking which family a game belongs to."""

    #: A ván is settled by rank (placings, or one ù with its đền), not by cước: no cước chips, no
    #: hand checker deriving cước, no streaks, no gà (Phỏm).
    ranked: bool
    #: Đánh gom can be played (a pool every player feeds per hội); else quăng only.
    has_gom: bool
    #: Cước values are multiples (bội) of the stake N of the hội, and a hội may set its own N
    #: (Tài Bàn).
    stake_per_hoi: bool
    #: The plain win (suông) is one of the cước a scorekeeper taps (Tài Bàn's three cước).
    plain_win_is_cuoc: bool
    #: The pot gà contributions feed.
    ga_pot: GaPot
    #: A hội's opening feeds gà đầu hội (when the mode or the rule set asks for it).
    ga_dau_hoi: bool
    #: A Thông / Khôi win makes the winner's nhà trên feed the pot the streak's dịch (gà thông).
    ga_thong: bool
    #: A gà event marked Chi Chi counts the rule set's Chi Chi factor times.
    chi_chi_multiplies_ga: bool
    #: Đền làng is the rule set's fixed fine (Chắn's "8 đỏ 2 lèo"), never the plain win under the
    #: hội's stake.
    fixed_fine: bool
    #: A xướng thừa pays the value of what was declared; else it pays đền làng.
    xuong_thua_pays_declared: bool
    #: A declaration must name the hand exactly (every cước, as many times); else naming fewer
    #: cước than the hand holds is a xướng thiếu, paid as declared.
    declaration_exact: bool
    #: The rule set's gà cước (``chan_ga_cuoc``) add a gà line to a win's points.
    ga_as_cuoc: bool
    #: A second win in a row is a Thông.
    has_thong: bool
    #: Wins in a row past Thông climb the Khôi ladder (Tam Khôi, Tứ Khôi…).
    has_khoi: bool
    #: Tứ Trụ and a gom derived from Chi Nẩy exist (the Tổ Tôm deck's tiếng).
    has_tu_tru: bool

    def as_data(self) -> dict[str, bool | str]:
        """The traits as JSON-ready data (a page's script reads them: the offline preview)."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


_NOT_RANKED = {"ranked": False, "has_gom": True}
_TIENG = {"ga_dau_hoi": True, "ga_thong": True, "chi_chi_multiplies_ga": False, "fixed_fine": False}
_TIENG |= {"xuong_thua_pays_declared": True, "declaration_exact": False, "ga_as_cuoc": False}

#: The traits of every scoring family.
FAMILY_TRAITS: Mapping[ScoringFamily, FamilyTraits] = MappingProxyType(
    {
        ScoringFamily.TO_TOM: FamilyTraits(
            **_NOT_RANKED,
            **_TIENG,
            stake_per_hoi=False,
            plain_win_is_cuoc=False,
            ga_pot=GaPot.TRONG,
            has_thong=True,
            has_khoi=True,
            has_tu_tru=True,
        ),
        ScoringFamily.TAI_BAN: FamilyTraits(
            **_NOT_RANKED,
            **_TIENG,
            stake_per_hoi=True,
            plain_win_is_cuoc=True,
            ga_pot=GaPot.TRONG,
            has_thong=False,
            has_khoi=False,
            has_tu_tru=False,
        ),
        ScoringFamily.CHAN: FamilyTraits(
            **_NOT_RANKED,
            stake_per_hoi=False,
            plain_win_is_cuoc=False,
            ga_pot=GaPot.NUOI,
            ga_dau_hoi=False,
            ga_thong=False,
            chi_chi_multiplies_ga=True,
            fixed_fine=True,
            xuong_thua_pays_declared=False,
            declaration_exact=True,
            ga_as_cuoc=True,
            has_thong=True,
            has_khoi=False,
            has_tu_tru=False,
        ),
        ScoringFamily.PHOM: FamilyTraits(
            ranked=True,
            has_gom=False,
            stake_per_hoi=False,
            plain_win_is_cuoc=False,
            ga_pot=GaPot.NONE,
            ga_dau_hoi=False,
            ga_thong=False,
            chi_chi_multiplies_ga=False,
            fixed_fine=False,
            xuong_thua_pays_declared=False,
            declaration_exact=False,
            ga_as_cuoc=False,
            has_thong=False,
            has_khoi=False,
            has_tu_tru=False,
        ),
    }
)


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

    @property
    def traits(self) -> FamilyTraits:
        """What sets this game's scoring family apart (:data:`FAMILY_TRAITS`)."""
        return FAMILY_TRAITS[self.family]

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
