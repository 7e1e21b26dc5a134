"""settle_van: one ván → its transfers and the next state. A sitting is a pure fold of it.

``state_n = fold(settle_van, van_1..n, initial_state(players, game, rules, mode))``
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scoring.engine.errors import N_, SettlementError, shown
from scoring.engine.games import Game, ScoringFamily, get_game
from scoring.engine.rules import BaoRegime, RuleSet, load_rules
from scoring.engine.words import PHRASES

from .context import SittingTerms, check_players
from .ga import event_contributions, van_contributions
from .hoi import close_hoi, needs_opening, open_hoi
from .ledger import Book, check_state
from .parse import parse_van
from .pay import pay_den_lang
from .phom import settle_phom
from .types import HoiSpan, Mode, SittingState, VanRecord, VanSettlement
from .validate import bao_regime, validate_van
from .win import WinOutcome, settle_win

__all__ = ["initial_state", "make_terms", "settle_sitting", "settle_van"]

GameSpec = str | Game
RulesSpec = str | Mapping[str, Any] | RuleSet


def make_terms(game: GameSpec, rules: RulesSpec, mode: Mode | str) -> SittingTerms:
    """Resolve a game slug, a rule-set spec and a mode into a :class:`SittingTerms`."""
    try:
        the_mode = Mode(str(mode).strip().lower())
    except ValueError:
        raise SettlementError(
            N_("'mode' phải là 'quang' (đánh quăng) hoặc 'gom' (đánh gom), nhận được {value}."),
            value=shown(mode),
        ) from None
    return SittingTerms(get_game(game), load_rules(rules), the_mode)


def initial_state(
    players: Sequence[str], game: GameSpec, rules: RulesSpec, mode: Mode | str = Mode.QUANG
) -> SittingState:
    """The state of a sitting before its first ván: every balance 0, no hội opened yet."""
    table = make_terms(game, rules, mode)
    names = check_players(players, table.game, table.rules, table.mode)
    zeros = tuple(0 for _ in names)
    return SittingState(players=names, balances=zeros, cheo_do=zeros)


@dataclass(frozen=True, slots=True)
class _Result:
    """What the outcome of a ván changes besides money."""

    points: int = 0
    streak: int = 0
    win: WinOutcome | None = None
    dealer: str | None = None


def settle_van(
    state: SittingState,
    van: VanRecord | Mapping[str, Any],
    *,
    game: GameSpec,
    rules: RulesSpec,
    mode: Mode | str = Mode.QUANG,
) -> VanSettlement:
    """Settle one ván: open a hội if due, pay the outcome and its gà, close the hội if emptied."""
    table = make_terms(game, rules, mode)
    number = state.van_count + 1
    record = van if isinstance(van, VanRecord) else parse_van(van, state.players, number)
    if record.number != number:
        record = replace(record, number=number)
    validate_van(table, state, record)
    book = Book(state)
    opened = needs_opening(table, state)
    hoi = open_hoi(book, table, state, number) if opened else state.hoi
    current = replace(state, stake=record.stake or state.stake)
    van_contributions(book, table, state.players)
    event_contributions(book, table, current, record)
    result = _outcome(book, table, current, record)
    debts = _debts_after(table, current, record, result)
    closes = (result.win is not None and result.win.ends_hoi) or (
        table.gom and book.pool_paid_out and book.pool == 0
    )
    if closes:
        hoi, debts = close_hoi(book, table, current, hoi, debts, number)
    new_state = _next_state(table, current, record, result, book, hoi, debts, open_=not closes)
    check_state(new_state)
    return VanSettlement(
        number=number,
        points=result.points,
        streak=result.streak,
        transfers=tuple(book.transfers),
        state=new_state,
        hoi_opened=opened,
        hoi_closed=closes,
        breakdown=result.win.breakdown if result.win else None,
    )


def _outcome(book: Book, table: SittingTerms, state: SittingState, van: VanRecord) -> _Result:
    """Pay the ván's outcome (Phỏm ranks, a win, a báo, fines); return what else it changes."""
    if table.family is ScoringFamily.PHOM:
        return _Result(dealer=settle_phom(book, table, state, van))
    regime = bao_regime(table, van)
    sitter = van.bao if regime is BaoRegime.NGOI_DAY else None
    if van.bao is not None and regime is BaoRegime.DEN_LANG:
        pay_den_lang(
            book, table, van.bao, state.players, table.den_lang_value(state), PHRASES["bao_den_lang"]
        )
    for faulter in van.den_lang:
        pay_den_lang(
            book, table, faulter, state.players, table.den_lang_value(state), PHRASES["phat_den_lang"]
        )
    if van.winner is not None:
        win = settle_win(book, table, state, van, sitter)
        return _Result(win.points, win.streak, win, van.winner)
    return _Result(dealer=_dealer_without_win(state, van))


def _dealer_without_win(state: SittingState, van: VanRecord) -> str | None:
    """Cái after a báo (the faulter) or a draw (đầu kê, else the first to fold) — RULES §3."""
    if van.bao is not None:
        return van.bao
    if van.dau_ke is not None:
        return van.dau_ke
    if van.chiu and len(van.chiu) < len(state.players):
        return van.chiu[0]
    return None


def _debts_after(
    table: SittingTerms, state: SittingState, van: VanRecord, result: _Result
) -> tuple[int, ...]:
    debts = list(state.cheo_do)
    if result.win is not None and result.win.debt_cleared:
        assert van.winner is not None
        debts[state.players.index(van.winner)] -= 1
    if van.bao is not None and bao_regime(table, van) is BaoRegime.CHEO_DO:
        debts[state.players.index(van.bao)] += 1
    return tuple(debts)


def _streak_after(
    table: SittingTerms, state: SittingState, van: VanRecord, result: _Result
) -> tuple[str | None, int]:
    """Who is on a streak after this ván (RULES §8 Streaks): only valid paid wins extend one."""
    win = result.win
    if win is not None and win.paid:
        return van.winner, win.streak
    if win is not None and win.lanh_lang and not table.rules.lanh_lang_breaks_streak:
        return state.streak_holder, state.streak
    return None, 0


def _next_state(
    table: SittingTerms,
    state: SittingState,
    van: VanRecord,
    result: _Result,
    book: Book,
    hoi: tuple[HoiSpan, ...],
    debts: tuple[int, ...],
    open_: bool,
) -> SittingState:
    holder, streak = _streak_after(table, state, van, result)
    return replace(
        state,
        balances=book.balances(state.players),
        pool=book.pool,
        ga_trong=book.pot,
        streak_holder=holder,
        streak=streak,
        hoi=hoi,
        hoi_open=open_,
        cheo_do=debts,
        dealer=result.dealer,
        van_count=state.van_count + 1,
    )


def settle_sitting(
    players: Sequence[str],
    vans: Iterable[VanRecord | Mapping[str, Any]],
    *,
    game: GameSpec,
    rules: RulesSpec,
    mode: Mode | str = Mode.QUANG,
) -> tuple[SittingState, tuple[VanSettlement, ...]]:
    """Fold :func:`settle_van` over a sitting's ván; return the final state and every settlement."""
    table = make_terms(game, rules, mode)
    state = initial_state(players, table.game, table.rules, table.mode)
    settlements: list[VanSettlement] = []
    for van in vans:
        settled = settle_van(state, van, game=table.game, rules=table.rules, mode=table.mode)
        settlements.append(settled)
        state = settled.state
    return state, tuple(settlements)
