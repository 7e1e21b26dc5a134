"""The fixed context of a sitting (game, rule set, mode) and small shared helpers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from scoring.engine import bounds
from scoring.engine.errors import N_, EngineError, GameError, SettlementError
from scoring.engine.games import FamilyTraits, Game, ScoringFamily
from scoring.engine.points import Breakdown, score
from scoring.engine.rules import RuleSet, wrong_family

from .types import RESERVED_ACCOUNTS, Mode, SittingState

__all__ = ["SittingTerms", "check_players", "in_van"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class SittingTerms:
    """What stays fixed for a whole sitting: the game, its rule set, the payment mode."""

    game: Game
    rules: RuleSet
    mode: Mode

    @property
    def family(self) -> ScoringFamily:
        """How the game's wins are valued."""
        return self.game.family

    @property
    def traits(self) -> FamilyTraits:
        """What sets the game's family apart."""
        return self.game.traits

    @property
    def gom(self) -> bool:
        """Whether the sitting is played đánh gom."""
        return self.mode is Mode.GOM

    def rules_for(self, state: SittingState) -> RuleSet:
        """The rule set in force for the next ván (Tài Bàn: with the stake of the hội)."""
        if state.stake is None or state.stake == self.rules.stake:
            return self.rules
        return replace(self.rules, stake=state.stake)

    def den_lang_value(self, state: SittingState) -> int:
        """Đền làng amount A when nothing was declared (Chắn: the "8 đỏ 2 lèo" fine)."""
        if self.traits.fixed_fine:
            return self.rules.chan_fine_value()
        return self.rules_for(state).den_lang_value()

    def score(self, state: SittingState, cuoc: Sequence[str], streak: int, number: int) -> Breakdown:
        """Score a win, naming the ván in any error."""
        rules = self.rules_for(state)
        return in_van(number, lambda: score(self.game, rules, list(cuoc), max(streak, 1)))


def in_van(number: int, action: Callable[[], T]) -> T:
    """Run ``action``; an engine error it raises is re-raised (same class) naming the ván."""
    try:
        return action()
    except EngineError as exc:
        if exc.template.startswith("Ván "):
            raise
        raise exc.within(N_("Ván {number}: {inner}"), number=number) from exc


def check_players(players: Sequence[str], game: Game, rules: RuleSet, mode: Mode) -> tuple[str, ...]:
    """Validate the seats of a sitting; return them as a tuple."""
    names = tuple(players)
    if not all(isinstance(name, str) and name.strip() and len(name) <= bounds.PLAYER_NAME for name in names):
        raise SettlementError(
            N_("'players' phải là danh sách tên người chơi (chuỗi không rỗng, tối đa {n} ký tự)."),
            n=bounds.PLAYER_NAME,
        )
    if len(set(names)) != len(names):
        raise SettlementError(N_("'players' có tên người chơi lặp lại."))
    reserved = sorted(RESERVED_ACCOUNTS & set(names))
    if reserved:
        raise SettlementError(
            N_("Tên người chơi '{name}' trùng với tên tài khoản của làng."), name=reserved[0]
        )
    if not game.accepts_players(len(names)):
        if game.players_min == game.players_max:
            raise GameError(
                N_("{game} cần {n} người chơi (nhận được {got})."),
                game=game.name_vi,
                n=game.players_min,
                got=len(names),
            )
        raise GameError(
            N_("{game} cần {lo} đến {hi} người chơi (nhận được {got})."),
            game=game.name_vi,
            lo=game.players_min,
            hi=game.players_max,
            got=len(names),
        )
    if rules.family is not game.family:
        raise wrong_family(rules, game)
    if not game.traits.has_gom and mode is Mode.GOM:
        raise SettlementError(N_("Phỏm tính tiền theo thứ hạng giữa các nhà: không chơi đánh gom."))
    return names
