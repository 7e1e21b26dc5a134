"""settle_up: the fewest transfers that bring every balance of a sitting to zero."""

from __future__ import annotations

import pytest

from scoring.engine.errors import SettlementError
from scoring.engine.settlement import settle_up


def _apply(balances: dict[str, int], transfers: list) -> dict[str, int]:
    after = dict(balances)
    for t in transfers:
        assert t.amount > 0
        after[t.from_] += t.amount
        after[t.to] -= t.amount
    return after


@pytest.mark.parametrize(
    ("balances", "fewest"),
    [
        pytest.param({"An": 0, "Bình": 0}, 0, id="nothing to settle"),
        pytest.param({"An": 10, "Bình": -10}, 1, id="one debt"),
        # golden sitting: 3 debtors, 2 creditors, no zero-sum subgroup -> 5 - 1 = 4
        pytest.param(
            {"An": 110, "Bình": -60, "Chi": 30, "Dũng": -42, "Em": -38}, 4, id="golden 110/-60/30/-42/-38"
        ),
        # {A 5, B -5} and {C 7, D -3, E -4} are two zero-sum groups -> 5 - 2 = 3 (greedy over
        # all five would pair C's 7 with B's 5 first and need 4)
        pytest.param({"A": 5, "B": -5, "C": 7, "D": -3, "E": -4}, 3, id="two groups 5-5 | 7-3-4"),
        # {A 4, D -4}, {B 3, E -3}, {C 2, F -2}: three pairs -> 3 transfers
        pytest.param({"A": 4, "B": 3, "C": 2, "D": -4, "E": -3, "F": -2}, 3, id="three pairs"),
        # greedy alone would pay 6->A first: {A 6, B 1, C -4, D -3} needs 3 either way
        pytest.param({"A": 6, "B": 1, "C": -4, "D": -3}, 3, id="no split possible"),
        # {A 3, C -3} and {B 2, D -1, E -1} -> 5 - 2 = 3
        pytest.param({"A": 3, "B": 2, "C": -3, "D": -1, "E": -1}, 3, id="hidden pair among five"),
    ],
)
def test_settle_up_is_minimal_and_zeroes_everyone(balances: dict[str, int], fewest: int) -> None:
    transfers = settle_up(balances)
    assert len(transfers) == fewest
    assert all(v == 0 for v in _apply(balances, transfers).values())


def test_settle_up_transfers_go_from_debtor_to_creditor_with_a_vietnamese_reason() -> None:
    (transfer,) = settle_up({"An": 12, "Bình": -12})
    assert (transfer.from_, transfer.to, transfer.amount) == ("Bình", "An", 12)
    assert transfer.why == "Bình trả An 12 điểm: thanh toán cuối canh"


def test_settle_up_refuses_balances_that_do_not_sum_to_zero() -> None:
    with pytest.raises(SettlementError, match="tổng số dư phải bằng 0"):
        settle_up({"An": 5, "Bình": -4})


def test_settle_up_twelve_players_in_six_pairs() -> None:
    # six pairs (k, -k) among twelve players: the exact search must find 6 groups -> 6 transfers
    balances = {f"P{k}": k for k in range(1, 7)} | {f"N{k}": -k for k in range(1, 7)}
    transfers = settle_up(balances)
    assert len(transfers) == 6
    assert all(v == 0 for v in _apply(balances, transfers).values())
