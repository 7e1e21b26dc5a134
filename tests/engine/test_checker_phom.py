"""Phỏm from the cards (issue 31, item 3; seed 003): the phỏm that leave the fewest points, each
player's points, and the ván's ranks (ties to who laid down first, móm last, ù takes all)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from scoring.engine import CardError, EngineError, load_rules
from scoring.engine.checker.phom import best_phom, check_phom, has_ca
from scoring.engine.contract import check_request
from scoring.engine.games import get_game
from scoring.engine.western import WESTERN_CARDS, parse_western, parse_western_hand

PHOM = get_game("phom")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("kc", "kc"),
        ("Kc", "kc"),
        ("K♥", "kc"),
        ("10t", "10t"),
        ("10♣", "10t"),
        ("1b", "ab"),
        ("A Bích", "ab"),
        ("át bích", "ab"),
        ("Q rô", "qr"),
        ("10 nhep", "10t"),
        ("j co", "jc"),
    ],
)
def test_western_cards_read_codes_symbols_and_names(text: str, code: str) -> None:
    assert parse_western(text).code == code


def test_the_deck_has_52_cards_worth_their_rank() -> None:
    assert len(WESTERN_CARDS) == 52 and len({c.code for c in WESTERN_CARDS}) == 52
    assert [parse_western(c).points for c in ("ab", "10c", "jc", "qc", "kc")] == [1, 10, 11, 12, 13]


@pytest.mark.parametrize(
    ("hand", "message"),
    [("kc kc", "K Cơ có hai lần"), ("kc 11c", "thứ 2"), ("kc 0b", "thứ 2"), ("7v 3m", "thứ 1")],
)
def test_bad_western_hands_are_refused(hand: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        parse_western_hand(hand)


@pytest.mark.parametrize(
    ("hand", "points", "phom"),
    [
        # a run and a set; Q K left
        ("ab 2b 3b 4b 7c 7r 7t kc qc", 25, 2),
        # 7 Cơ can go in the set or in the run 5-6-7 Cơ: the set leaves fewer points
        ("5c 6c 7c 7r 7t 9b", 5 + 6 + 9, 1),
        # 4 of a rank and a run sharing a card: 3 of the rank + the run leave nothing
        ("8b 8t 8r 8c 9c 10c", 0, 2),
        # Q-K-A is no run (A is low); A-2-3 is
        ("qb kb ab", 26, 0),
        ("ab 2b 3b", 0, 1),
        # K Cơ in the run J-Q-K would leave two K: in the set of K it leaves J Q
        ("jc qc kc kb kt", 11 + 12, 1),
    ],
)
def test_best_phom_leaves_the_fewest_points(hand: str, points: int, phom: int) -> None:
    melds, left = best_phom(parse_western_hand(hand))
    assert (left, len(melds)) == (points, phom)
    used = [c.code for m in melds for c in m]
    assert len(used) == len(set(used))  # each card in at most one phỏm


def test_the_search_is_exact_against_brute_force() -> None:
    import random
    from itertools import combinations

    from scoring.engine.checker.phom import _melds

    rng = random.Random(31)
    for _ in range(150):
        cards = rng.sample(WESTERN_CARDS[:26], 9)  # two suits: many runs and sets
        melds = _melds(cards)
        best = sum(c.rank for c in cards)
        for k in range(1, 4):
            for group in combinations(melds, k):
                used = [c.index for m in group for c in m]
                if len(used) == len(set(used)):
                    best = min(best, sum(c.rank for c in cards if c.index not in used))
        assert best_phom(cards)[1] == best


def test_a_full_suit_is_searched_quickly() -> None:
    start = time.perf_counter()
    best_phom(WESTERN_CARDS[:13])
    best_phom([c for c in WESTERN_CARDS if c.rank in (1, 2, 3, 4)][:13])
    assert time.perf_counter() - start < 2


def _players(*hands: str) -> list[dict[str, str]]:
    names = ["An", "Bình", "Chi", "Dũng"]
    return [{"name": names[i], "hand": h} for i, h in enumerate(hands)]


@pytest.mark.parametrize(
    ("hands", "ranks", "winner"),
    [
        # lowest first
        (("ab 2b 3b 4b 7c 7r 7t kc qc", "5c 6c 8c 9r 10r jr 2t 3t 4t"), ["Bình", "An"], None),
        # equal points: who laid down first (the order given) ranks first
        (("ab 2b 3b 5c", "at 2t 3t 5r"), ["An", "Bình"], None),
        (("at 2t 3t 5r", "ab 2b 3b 5c"), ["An", "Bình"], None),
        # móm ranks last even with fewer points; móm players by points then order
        (("2c 3c 9r", "kb kt kr qc jr", "ac 2r 3t 3b"), ["Bình", "Chi", "An"], None),
        # every card in phỏm: ù takes all
        (("ab 2b 3b 4b 7c 7r 7t kc qc", "qb qt qr 5b 5t 5r 8b 8t 8r"), [], "Bình"),
        # three phỏm and the one card still to discard (the first player's 10): ù
        (("5c 6c 7c 9r 10r jr 2t 3t 4t kb", "ab 2b 3b 4b 7b 7r 7t"), [], "An"),
        # two hands ù: the first to lay down took the ván
        (("2c 3c 4c", "ab 2b 3b"), [], "An"),
    ],
)
def test_the_van_is_ranked(hands: tuple[str, ...], ranks: list[str], winner: str | None) -> None:
    result = check_phom(PHOM, _players(*hands)).to_dict()
    assert (result["ranks"], result["winner"]) == (ranks, winner)


def test_u_khan_is_a_rule_option() -> None:
    # no phỏm and no cạ (no two cards of a rank, none of a suit within two ranks)
    khan = "ab 4b 7b 10b kt 3r 6r jr 9c"
    other = "2c 3c 4c 5t 6t"
    assert has_ca(parse_western_hand(khan)) is False
    played = check_request({"game": "phom", "players": _players(khan, other)})
    assert played["winner"] == "An" and played["players"][0]["u_khan"] is True
    assert load_rules("phom").phom_u_khan is True  # seed 003: "ù khan ... thắng bài ngay lập tức"
    off = check_request(
        {"game": "phom", "players": _players(khan, other), "rules": {"preset": "phom", "phom_u_khan": False}}
    )
    assert off["winner"] is None and off["ranks"] == ["Bình", "An"] and off["players"][0]["mom"] is True
    # a hand with a cạ is móm, not ù khan
    with_ca = check_request({"game": "phom", "players": _players("ab 2b 7b 10b kt 3r 6r jr 9c", other)})
    assert with_ca["winner"] is None and with_ca["players"][0]["mom"] is True


def test_the_answer_records_a_van() -> None:
    """The ranks or the winner are what a Phỏm ván records (settlement: ranks / winner)."""
    from scoring.engine import initial_state, settle_van

    answer = check_request(
        {"game": "phom", "players": _players("ab 2b 3b 4b 7c 7r 7t kc qc", "5c 6c 8c 9r 10r jr 2t 3t 4t")}
    )
    rules = load_rules("phom")
    settled = settle_van(
        initial_state(["An", "Bình"], PHOM, rules), {"ranks": answer["ranks"]}, game=PHOM, rules=rules
    )
    assert settled.state.balance_map() == {"Bình": 1, "An": -1}
    first = answer["players"][0]
    assert first["phom"] == [["7t", "7r", "7c"], ["ab", "2b", "3b", "4b"]] and first["left"] == ["qc", "kc"]
    assert first["points"] == 25 and first["mom"] is False and first["u"] is False


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([{"name": "An", "hand": "ab"}], "từ 2 đến 4"),
        (_players("ab", "2b", "3b", "4b") + [{"name": "Em", "hand": "5b"}], "từ 2 đến 4"),
        (_players("ab 2b", "2b 3c"), "2 Bích có ở cả bài An và bài Bình"),
        ([{"name": "An", "hand": "ab"}, {"name": "An", "hand": "2b"}], "cùng tên An"),
        ([{"name": "x" * 81, "hand": "ab"}, {"name": "B", "hand": "2b"}], "tối đa 80 ký tự"),
        (_players("ab", " ".join(c.code for c in WESTERN_CARDS[13:27])), "14 quân"),
        (_players("ab", "7v"), "Bài của Bình: Không nhận ra"),
        ([{"hand": "ab", "seat": 1}, {"hand": "2b"}], "Người chơi thứ 1"),
        ("ab 2b", "danh sách"),
        (_players("ab", ""), "Bài của Bình chưa có quân nào"),
    ],
)
def test_bad_phom_requests_are_refused(players: Any, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        check_request({"game": "phom", "players": players})


def test_a_phom_request_takes_players_not_hand() -> None:
    with pytest.raises(EngineError, match="hand"):
        check_request({"game": "phom", "hand": "ab 2b 3b"})
    with pytest.raises(EngineError, match="players"):
        check_request({"game": "to-tom-5", "players": []})
    with pytest.raises(EngineError, match="Chắn"):
        check_request({"game": "phom", "players": _players("ab", "2b"), "rules": "chan"})
