"""The data of settlement: accounts, transfers, recorded ván, the state of a sitting.

Everything here is immutable. A sitting's state is a pure fold of :func:`settle_van` over its
ván (see :mod:`.engine`); nothing is ever updated in place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from scoring.engine.errors import N_, Msg, SettlementError
from scoring.engine.rules import BaoRegime

__all__ = [
    "GA_TRONG",
    "POOL",
    "RESERVED_ACCOUNTS",
    "BaoRegime",
    "Fault",
    "GaEvent",
    "HoiSpan",
    "Mode",
    "SittingState",
    "Transfer",
    "VanRecord",
    "VanSettlement",
    "van_error",
]


def van_error(number: int, template: str, /, *, code: str | None = None, **params: Any) -> SettlementError:
    """A SettlementError naming the ván: "Ván 3: không có người chơi 'Bin' (khóa 'winner')."
    ``code``: a finer machine code than the class's, for a mistake a reader tells apart."""
    return SettlementError(
        N_("Ván {number}: {inner}"), code=code, number=number, inner=Msg(template, **params)
    )


#: The village pool (điểm làng) of đánh gom.
POOL = "pool"
#: The gà trong pot (in Chắn: the gà nuôi pot; one pot per sitting).
GA_TRONG = "ga_trong"
#: Account names a player may not take.
RESERVED_ACCOUNTS = frozenset({POOL, GA_TRONG})


class Mode(StrEnum):
    """How wins are paid (docs/rules.md §8)."""

    #: Đánh quăng: the other players pay the winner directly.
    QUANG = "quang"
    #: Đánh gom: everyone pays into a pool at the start of each hội; wins are taken from it.
    GOM = "gom"


class Fault(StrEnum):
    """A fault recorded on a win (docs/rules.md §7, §10)."""

    #: Ù lành làng: a light fault; the win is unpaid and breaks the streak.
    LANH_LANG = "lanh_lang"
    #: Ù báo: a heavy fault at the win; the winner pays đền làng.
    U_BAO = "u_bao"
    #: Xướng thừa: declared cước the hand lacks; pays the declared value as đền làng.
    XUONG_THUA = "xuong_thua"
    #: Đánh ù đền: the discarder broke "một thành hai chờ" and pays the whole win.
    DANH_U_DEN = "danh_u_den"
    #: Đền chồng: as đánh ù đền, and the discarder also pays đền làng.
    DEN_CHONG = "den_chong"


@dataclass(frozen=True, slots=True)
class Transfer:
    """One movement of points between two accounts (a player, :data:`POOL`, :data:`GA_TRONG`)."""

    from_: str
    to: str
    #: Always a positive integer.
    amount: int
    #: Why, in Vietnamese ("Bình trả An 8 điểm: ù Tôm").
    why: str

    def to_dict(self) -> dict[str, Any]:
        """The JSON form used by the replay contract."""
        return {"from": self.from_, "to": self.to, "amount": self.amount, "why": self.why}


@dataclass(frozen=True, slots=True)
class GaEvent:
    """A gà contribution recorded during a ván (docs/rules.md §9, §12).

    ``count`` is the nhái level for ``nhai`` (1st, 2nd … in a row), the number of cards for
    ``quan_lo`` and a plain multiplier otherwise. ``chi_chi`` doubles a Chắn chíu or nhái.
    """

    kind: str
    player: str
    count: int = 1
    chi_chi: bool = False


@dataclass(frozen=True, slots=True)
class VanRecord:
    """What happened in one ván, as the scorekeeper records it (every outcome of RULES §7, §10)."""

    #: 1-based number of the ván in the sitting (used in error messages).
    number: int
    winner: str | None = None
    #: What the winning hand really has.
    cuoc: tuple[str, ...] = ()
    #: What the winner declared, when it differs from ``cuoc`` (xướng thiếu / thừa).
    declared: tuple[str, ...] | None = None
    discarder: str | None = None
    #: Players who folded (chịu) at the start of the ván.
    chiu: tuple[str, ...] = ()
    fault: Fault | None = None
    #: ``"hoa"`` for a draw.
    result: str | None = None
    #: The player caught by a báo during play, and how it is paid.
    bao: str | None = None
    regime: BaoRegime | None = None
    ga: tuple[GaEvent, ...] = ()
    #: Players fined đền làng in this ván for a fault of their own (Chắn: bỏ ù, ù láo…).
    den_lang: tuple[str, ...] = ()
    #: Tài Bàn: the stake N from this ván on.
    stake: int | None = None
    #: Phỏm: players from first to last.
    ranks: tuple[str, ...] = ()
    #: Phỏm: the player who fed the ù winner three cards and pays for every loser.
    den: str | None = None
    #: The player at whose cửa the last nọc card fell (next dealer after a draw).
    dau_ke: str | None = None


@dataclass(frozen=True, slots=True)
class HoiSpan:
    """One hội of a sitting: before which ván it opened, after which it closed (or None)."""

    index: int
    opened_before_van: int
    closed_after_van: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form used by the replay contract."""
        return {
            "index": self.index,
            "opened_before_van": self.opened_before_van,
            "closed_after_van": self.closed_after_van,
        }


@dataclass(frozen=True, slots=True)
class SittingState:
    """The state of a sitting between two ván. Balances and debts follow the seat order."""

    #: Players in seat order (counter-clockwise: each plays after the one before).
    players: tuple[str, ...]
    #: Each player's balance, in seat order.
    balances: tuple[int, ...]
    #: Points in the village pool (đánh gom).
    pool: int = 0
    #: Points in the gà trong / gà nuôi pot.
    ga_trong: int = 0
    #: The player on a streak of valid wins, and its length (0 when nobody is).
    streak_holder: str | None = None
    streak: int = 0
    #: Hội so far; the last one is the current one.
    hoi: tuple[HoiSpan, ...] = ()
    #: Whether the current hội is open (gom: a closed hội reopens when the next ván starts).
    hoi_open: bool = False
    #: Unpaid báo chèo đò debts per player, in seat order.
    cheo_do: tuple[int, ...] = ()
    #: The dealer (cái) of the next ván, when RULES §3 lets us derive it.
    dealer: str | None = None
    #: Ván settled so far.
    van_count: int = 0
    #: Tài Bàn stake N in force (None: the rule set's).
    stake: int | None = None

    @property
    def hoi_index(self) -> int:
        """1-based index of the current hội (0 before any)."""
        return len(self.hoi)

    def to_json(self) -> dict[str, Any]:
        """A JSON form that :meth:`from_json` reads back equal (the stored snapshot of a sitting)."""
        return {
            "players": list(self.players),
            "balances": list(self.balances),
            "pool": self.pool,
            "ga_trong": self.ga_trong,
            "streak_holder": self.streak_holder,
            "streak": self.streak,
            "hoi": [h.to_dict() for h in self.hoi],
            "hoi_open": self.hoi_open,
            "cheo_do": list(self.cheo_do),
            "dealer": self.dealer,
            "van_count": self.van_count,
            "stake": self.stake,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SittingState:
        return cls(
            players=tuple(data["players"]),
            balances=tuple(data["balances"]),
            pool=data["pool"],
            ga_trong=data["ga_trong"],
            streak_holder=data["streak_holder"],
            streak=data["streak"],
            hoi=tuple(HoiSpan(**h) for h in data["hoi"]),
            hoi_open=data["hoi_open"],
            cheo_do=tuple(data["cheo_do"]),
            dealer=data["dealer"],
            van_count=data["van_count"],
            stake=data["stake"],
        )

    def balance_map(self) -> dict[str, int]:
        """Balances by player name."""
        return dict(zip(self.players, self.balances, strict=True))

    def debts(self, player: str) -> int:
        """Unpaid chèo đò debts of ``player``."""
        return self.cheo_do[self.players.index(player)]

    def total(self) -> int:
        """Sum of every account; zero in any consistent state."""
        return sum(self.balances) + self.pool + self.ga_trong


@dataclass(frozen=True, slots=True)
class VanSettlement:
    """The settlement of one ván: what it was worth, who paid whom, and the new state."""

    number: int
    #: Points of the win as scored (0 when nobody won).
    points: int
    #: The streak the win was scored with (0 when nobody won).
    streak: int
    transfers: tuple[Transfer, ...]
    state: SittingState
    hoi_opened: bool = False
    hoi_closed: bool = False
    #: The scoring breakdown's JSON form, when a win was scored.
    breakdown: Mapping[str, Any] | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """The per-ván JSON form of the replay contract."""
        return {
            "points": self.points,
            "streak": self.streak,
            "transfers": [t.to_dict() for t in self.transfers],
        }
