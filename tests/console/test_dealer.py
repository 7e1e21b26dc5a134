"""The Trung Quân's helpers (pure): choosing the dealer by the three bắt cái methods of docs/rules.md §3,
for every count 1–10 and 3–5 players, and resolving ù đè."""

from __future__ import annotations

from collections import Counter

import pytest

from scoring.engine.cards import CARDS
from scoring.engine.errors import CardError, EngineError
from tournaments.console.dealer import BatCaiMethod, DealerError, card_count, choose_dealer, u_de, u_de_order

COUNTS = range(1, 11)

# -- method 1 (seed 000): one card, counted counter-clockwise from the nọc's gap ----------------

# Seat that gets cái (chooser at seat 1) and the cái part, for counts 1…10.
MOT_QUAN = {
    5: ([2, 3, 4, 5, 1, 2, 3, 4, 5, 1], [1, 2, 3, 4, 5, 1, 2, 3, 4, 5]),
    4: ([2, 3, 4, 1, 2, 3, 4, 1, 2, 3], [1, 2, 3, 4, 1, 2, 3, 4, 1, 2]),
    3: ([2, 3, 1, 2, 3, 1, 2, 3, 1, 2], [1, 2, 3, 1, 2, 3, 1, 2, 3, 1]),
}


@pytest.mark.parametrize(
    ("players", "count", "seat", "part"),
    [(n, c, MOT_QUAN[n][0][c - 1], MOT_QUAN[n][1][c - 1]) for n in (3, 4, 5) for c in COUNTS],
)
def test_mot_quan_counts_counter_clockwise_from_the_noc(
    players: int, count: int, seat: int, part: int
) -> None:
    choice = choose_dealer(BatCaiMethod.MOT_QUAN, [count], n_players=players, chooser=1)
    assert (choice.seat, choice.part, choice.count) == (seat, part, count)
    assert f"phần thứ {part}" in choice.explanation and f"chỗ {seat}" in choice.explanation


@pytest.mark.parametrize("code", ["cc", "tt", "oc", "Chi Chi", "thang thang", "Ông Cụ"])
def test_a_red_yeu_counts_ten(code: str) -> None:
    assert card_count(code) == 10
    choice = choose_dealer("mot_quan", [code], n_players=5, chooser=2)
    assert (choice.count, choice.part, choice.seat) == (10, 5, 2)  # ten goes round twice: back to the chooser


def test_with_red_yeu_as_ten_every_seat_of_five_is_equally_likely() -> None:
    """All 120 cards (30 kinds × 4): each of the 5 seats gets cái for exactly 24 of them."""
    seats = Counter(
        choose_dealer("mot_quan", [card.code], n_players=5).seat for card in CARDS for _ in range(4)
    )
    assert seats == {1: 24, 2: 24, 3: 24, 4: 24, 5: 24}


@pytest.mark.parametrize(
    ("card", "count"), [("7v", 7), ("thất văn", 7), ("1m", 1), ("Nhất Sách", 1), ("9s", 9)]
)
def test_a_card_counts_its_rank(card: str, count: int) -> None:
    assert card_count(card) == count


# -- method 2 (seed 001): two cards, their sum modulo the players -------------------------------


def _seed_001(total: int, players: int) -> tuple[int, int, str]:
    """The seed's own wording: subtract the player count until below it; 0 goes back (lùi);
    1 and 2 stay with the first part (nhất nhị tại vị); 3, 4 count forward. Chooser at seat 1."""
    rest = total
    while rest >= players:
        rest -= players
    if rest == 0:
        return players, players, "lùi"  # the part and the player on the chooser's left
    if rest in (1, 2):
        return 2, 1, "tại vị"  # the first part, the chooser's right neighbour
    return 1 + rest, rest, "tiến"


@pytest.mark.parametrize(
    ("players", "first", "second"),
    [(n, a, b) for n in (3, 4, 5) for a in COUNTS for b in (1, 4, 10)],
)
def test_hai_quan_takes_the_sum_modulo_the_players(players: int, first: int, second: int) -> None:
    choice = choose_dealer(BatCaiMethod.HAI_QUAN, [first, second], n_players=players, chooser=1)
    assert (choice.seat, choice.part, choice.relation) == _seed_001(first + second, players)
    assert choice.count == first + second


@pytest.mark.parametrize(
    ("cards", "part", "seat", "relation"),
    [
        (("1v", "1m"), 1, 2, "tại vị"),  # sum 2: the first part, the chooser's right neighbour
        (("2v", "2s"), 4, 5, "tiến"),  # sum 4: the fourth part, the fourth player to the right
        (("2v", "3s"), 5, 5, "lùi"),  # sum 5: backwards, the part and player on the left
        (("3v", "3m"), 1, 2, "tại vị"),  # 6 → cái nhất
        (("3v", "4m"), 1, 2, "tại vị"),  # 7 → cái nhị: nhất nhị tại vị
        (("9v", "9s"), 3, 4, "tiến"),  # 18 → cái tam
        (("cc", "oc"), 5, 5, "lùi"),  # 20, a multiple of 5
    ],
)
def test_hai_quan_examples_of_the_seed(cards: tuple[str, str], part: int, seat: int, relation: str) -> None:
    choice = choose_dealer("hai_quan", cards, n_players=5, chooser=1)
    assert (choice.part, choice.seat, choice.relation) == (part, seat, relation)


# -- method 3 (seed 004, Chắn): clockwise with the chooser as 1 ------------------------------------

CHAN = {
    4: [1, 4, 3, 2, 1, 4, 3, 2, 1, 4],
    5: [1, 5, 4, 3, 2, 1, 5, 4, 3, 2],
    3: [1, 3, 2, 1, 3, 2, 1, 3, 2, 1],
}


@pytest.mark.parametrize(
    ("players", "count", "seat"), [(n, c, CHAN[n][c - 1]) for n in (3, 4, 5) for c in COUNTS]
)
def test_chan_counts_clockwise_with_the_chooser_as_one(players: int, count: int, seat: int) -> None:
    choice = choose_dealer(BatCaiMethod.CHAN, [count], n_players=players, chooser=1)
    assert choice.seat == seat
    assert choice.part is None  # the cái part is the one the card was turned onto


@pytest.mark.parametrize(
    ("counts", "relation", "seat"),
    [
        ((2, 6), "tiến", 4),  # nhị (lục) tiến: the next one, clockwise (C after B in the seed)
        ((4, 8), "tụt", 2),  # tứ (bát) tụt: back
        ((3, 7), "đối", 3),  # tam (thất) đối: opposite (D facing B)
        ((1, 5, 9), "tại vị", 1),
    ],
)
def test_chan_mnemonic_for_four_players(counts: tuple[int, ...], relation: str, seat: int) -> None:
    for count in counts:
        choice = choose_dealer("chan", [count], n_players=4, chooser=1)
        assert (choice.relation, choice.seat) == (relation, seat)


@pytest.mark.parametrize(("card", "dealer"), [("7m", "D"), ("2m", "C"), ("4s", "A"), ("5v", "B")])
def test_chan_example_of_the_seed(card: str, dealer: str) -> None:
    """Seed 004: A, B, C, D (B facing D); B turns the card and counts B, C, D, A … clockwise, so
    counter-clockwise the seats are B 1, A 2, D 3, C 4. Thất → D, nhị → C."""
    seats = {1: "B", 2: "A", 3: "D", 4: "C"}
    choice = choose_dealer("chan", [card], n_players=4, chooser=1)
    assert seats[choice.seat] == dealer


@pytest.mark.parametrize("method", list(BatCaiMethod))
@pytest.mark.parametrize("players", [3, 4, 5])
def test_moving_the_chooser_turns_the_answer_with_it(method: BatCaiMethod, players: int) -> None:
    for count in COUNTS:
        cards = [count] * method.cards_needed
        base = choose_dealer(method, cards, n_players=players, chooser=1)
        for chooser in range(1, players + 1):
            moved = choose_dealer(method, cards, n_players=players, chooser=chooser)
            assert moved.seat == (base.seat - 1 + chooser - 1) % players + 1
            assert (moved.part, moved.relation) == (base.part, base.relation)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: choose_dealer("mot_quan", ["x7"]), "Không nhận ra quân bài 'x7'"),
        (lambda: choose_dealer("hai_quan", ["7v"]), "cần 2 quân"),
        (lambda: choose_dealer("bat_cai_la", ["7v"]), "Không có cách bắt cái"),
        (lambda: choose_dealer("mot_quan", ["7v"], n_players=6), "Số người chơi phải từ 3 đến 5"),
        (lambda: choose_dealer("mot_quan", ["7v"], n_players=4, chooser=5), "Người bắt cái"),
        (lambda: choose_dealer("chan", [11]), "từ 1 đến 10"),
    ],
)
def test_mistakes_get_a_vietnamese_message(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(EngineError) as caught:
        call()
    assert message in str(caught.value)
    assert isinstance(caught.value, DealerError | CardError)


# -- ù đè -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("door", "from_noc", "claimants", "winner", "overridden"),
    [
        (1, False, [3, 4], 3, (4,)),  # nearer counter-clockwise from the card at seat 1's door
        (1, False, [5, 2], 2, (5,)),  # the discarder's right neighbour is the nearest
        (4, False, [1, 3], 1, (3,)),  # door 4: 5, 1, 2, 3 in turn
        (3, True, [3, 4], 3, (4,)),  # a nọc card belongs first to the one who drew it
        (3, True, [5, 4], 4, (5,)),
        (5, False, [1, 2, 3, 4], 1, (2, 3, 4)),
    ],
)
def test_u_de_the_nearer_counter_clockwise_wins(
    door: int, from_noc: bool, claimants: list[int], winner: int, overridden: tuple[int, ...]
) -> None:
    result = u_de(door=door, claimants=claimants, from_noc=from_noc)
    assert (result.winner, result.overridden) == (winner, overridden)
    assert f"chỗ {winner} được ù" in result.explanation


@pytest.mark.parametrize("players", [3, 4, 5])
def test_u_de_order_goes_round_once_from_the_door(players: int) -> None:
    for door in range(1, players + 1):
        order = u_de_order(door=door, n_players=players)
        assert sorted(order) == sorted(set(range(1, players + 1)) - {door})
        assert order[0] == door % players + 1  # the right-hand neighbour first
        assert u_de_order(door=door, n_players=players, from_noc=True) == (door, *order)


def test_u_de_refuses_a_discarder_claiming_his_own_card() -> None:
    with pytest.raises(DealerError, match="không thể ù quân mình đánh"):
        u_de(door=2, claimants=[2, 3])
    with pytest.raises(DealerError, match="ít nhất một người"):
        u_de(door=2, claimants=[])


def test_the_helpers_are_pure_python() -> None:
    import subprocess
    import sys

    code = "import sys, tournaments.console.dealer; print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
