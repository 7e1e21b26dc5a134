"""The public entry points of the hand checker: one function per question, any game."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from scoring.engine.cards import Card, card_counts, parse_card
from scoring.engine.checker.chan import arrangements_chan, check_chan, waits_chan
from scoring.engine.checker.common import Arrangement, HandInput, read_hand, waiting_counts
from scoring.engine.checker.result import CheckResult, WaitsResult
from scoring.engine.checker.tai_ban import arrangements_tai_ban, check_tai_ban, waits_tai_ban
from scoring.engine.checker.to_tom import arrangements_to_tom, check_to_tom, waits_to_tom
from scoring.engine.checker.verdict import validate_declared
from scoring.engine.errors import N_, HandError
from scoring.engine.games import Game, GameSlug, ScoringFamily, get_game
from scoring.engine.rules import BareTriple, RuleSet

__all__ = ["arrangements", "check", "check_hand", "find_waits", "waits"]

GameInput = str | GameSlug | Game


_GAME_CACHE: dict[str, Game] = {}


def _game(game: GameInput) -> Game:
    if isinstance(game, str) and game in _GAME_CACHE:
        return _GAME_CACHE[game]
    found = get_game(game)
    if found.family is ScoringFamily.PHOM:
        raise HandError(
            N_("Bài Phỏm được kiểm theo từng người chơi: gửi 'players' (bài của mỗi người) thay cho 'hand'.")
        )
    if isinstance(game, str):
        _GAME_CACHE[game] = found
    return found


def _khans(
    game: Game,
    khans: Iterable[str | Card] | None,
    dealt_khan: bool | None,
    rules: RuleSet | None = None,
    dealt: Sequence[int] | None = None,
) -> tuple[frozenset[int], bool | None]:
    """Kinds named as khàn (Tài Bàn only) and the dealt-khàn flag they imply.

    With the rule ``tai_ban_triple = khan``, three identical ``dealt`` cards not named count as a
    khàn too (unless the hand says no khàn was dealt).
    """
    if (
        not khans
        and rules is not None
        and dealt is not None
        and game.family is ScoringFamily.TAI_BAN
        and rules.tai_ban_triple is BareTriple.KHAN
        and dealt_khan is not False
    ):
        triples = frozenset(kind for kind, n in enumerate(dealt) if n == 3)
        return triples, True if triples else dealt_khan
    if not khans:
        return frozenset(), dealt_khan
    if game.family is not ScoringFamily.TAI_BAN:
        raise HandError(N_("Chỉ Tài Bàn tính lưng khàn riêng; bỏ danh sách khàn đi."))
    kinds = frozenset(parse_card(k).index for k in khans)
    if dealt_khan is False:
        raise HandError(N_("Đã nêu khàn trong bài nhưng lại nói bài chia không có khàn."))
    return kinds, True


def check_hand(
    game: GameInput,
    hand: HandInput,
    declared: Iterable[str] | None = None,
    dealt_khan: bool | None = None,
    *,
    win_card: str | Card | None = None,
    khans: Iterable[str | Card] | None = None,
    rules: RuleSet | None = None,
) -> CheckResult:
    """Check a winning hand: complete? lưng? which card-derived cước? and the declaration.

    ``declared``: the cước the player announced (xướng); cước the cards cannot show (Thông,
    Thiên Ù…) are taken as declared. ``win_card``: the card won on, which makes the wait cước
    (Bạch Thủ, Xuyên…, Chi Nẩy) judgeable from the waiting hand. Tài Bàn: ``dealt_khan`` says
    whether a khàn was dealt (Suông/Tài Bàn vs Sửu Bàn), ``khans`` names the kinds laid as khàn;
    ``rules`` says how three identical cards not named count (``tai_ban_triple``).
    """
    g = _game(game)
    cards = read_hand(g, hand)
    wanted = None if declared is None else validate_declared(g, declared)
    win = None if win_card is None else parse_card(win_card)
    if win is not None and win not in cards:
        raise HandError(N_("Quân ù {card} không có trong bài."), card=win.name)
    kinds, dealt = _khans(g, khans, dealt_khan, rules, card_counts(cards))
    if g.family is ScoringFamily.TAI_BAN:
        return check_tai_ban(g, cards, wanted, dealt, kinds)
    if g.family is ScoringFamily.CHAN:
        return check_chan(g, cards, wanted, win)
    return check_to_tom(g, cards, wanted, win)


def find_waits(
    game: GameInput,
    hand: HandInput,
    *,
    dealt_khan: bool | None = None,
    khans: Iterable[str | Card] | None = None,
    rules: RuleSet | None = None,
) -> WaitsResult:
    """Every card kind that completes a hand one card short of a win, in deck order.

    Each wait lists the card-derived cước of the completed hand and the wait cước the win allows
    (Bạch Thủ, Xuyên Năm Gian, Xuyên Bí Tư, Xuyên, Chi Nẩy; Chắn: Bạch Thủ, Bạch Thủ Chi).
    """
    g = _game(game)
    cards = read_hand(g, hand)
    counts = waiting_counts(g, cards)
    kinds, dealt = _khans(g, khans, dealt_khan, rules, counts)
    if g.family is ScoringFamily.TAI_BAN:
        found = waits_tai_ban(g, counts, dealt, kinds)
    elif g.family is ScoringFamily.CHAN:
        found = waits_chan(g, counts)
    else:
        found = waits_to_tom(g, counts)
    return WaitsResult(g.slug.value, cards, found)


def arrangements(
    game: GameInput,
    hand: HandInput,
    *,
    dealt_khan: bool | None = None,
    khans: Iterable[str | Card] | None = None,
) -> Iterator[Arrangement]:
    """Every distinct winning arrangement of a hand (phu, or Chắn pairs), lazily.

    Only arrangements with the lưng the game needs (Chắn: 6 chắn) are given; an incomplete or
    wrongly sized hand gives none.
    """
    g = _game(game)
    cards = read_hand(g, hand)
    counts = card_counts(cards)
    if (g.hand_size is not None and len(cards) != g.hand_size) or max(counts) > 4:
        return iter(())
    kinds, dealt = _khans(g, khans, dealt_khan)
    if g.family is ScoringFamily.TAI_BAN:
        return arrangements_tai_ban(g, counts, dealt, kinds)
    if g.family is ScoringFamily.CHAN:
        return arrangements_chan(counts)
    return arrangements_to_tom(g, counts)


def check(
    game: GameInput,
    hand: HandInput,
    declared: Iterable[str] | None = None,
    dealt_khan: bool | None = None,
    **options: Any,
) -> dict[str, Any]:
    """:func:`check_hand` as the JSON object of the CLI/API contract."""
    return check_hand(game, hand, declared, dealt_khan, **options).to_dict()


def waits(game: GameInput, hand: HandInput, **options: Any) -> dict[str, Any]:
    """:func:`find_waits` as the JSON object of the CLI/API contract."""
    return find_waits(game, hand, **options).to_dict()
