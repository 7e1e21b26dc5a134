"""Settling up: the fewest transfers, recorded as settlement entries separate from play."""

from __future__ import annotations

import pytest

from scoring.models import TransactionKind
from scoring.selectors.ledger import balances
from scoring.services.sittings import SittingClosed, sitting_settle_up, van_correct, van_record
from tests.factories import new_key, open_sitting, record_all

pytestmark = pytest.mark.django_db


def test_quang_settles_with_the_fewest_transfers_and_keeps_play_apart() -> None:
    sitting = open_sitting()
    # An +32 -10 = 22... worked: ván 1 An Tôm (An +32, others -8); ván 2 Chi Lèo 10 (Chi +40, others -10).
    record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}, {"winner": "Chi", "cuoc": ["leo"]}])
    play = balances(sitting).players
    assert play == {"An": 22, "Bình": -18, "Chi": 32, "Dũng": -18, "Em": -18}
    answer = sitting_settle_up(sitting=sitting, settled_by=None, idempotency_key=new_key()).answer.body
    # Three debtors, two creditors, no zero-sum subgroup: 3 + 2 - 1 = 4 transfers.
    assert len(answer["transfers"]) == 4
    assert sum(t["amount"] for t in answer["transfers"]) == 54
    assert balances(sitting).players == dict.fromkeys(play, 0)
    assert balances(sitting, play_only=True).players == play
    assert set(
        sitting.transactions.filter(kind=TransactionKind.SETTLEMENT).values_list("reason", flat=True)
    ) == {"Thanh toán cuối canh"}


def test_gom_returns_the_pool_in_equal_shares_before_settling() -> None:
    sitting = open_sitting(mode="gom", rules={"preset": "luat-2005", "gom": 10})
    # Pool 50 - An's Tôm 8 = 42: 8 each, and the 2 that do not divide go to the first two seats.
    record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}])
    answer = sitting_settle_up(sitting=sitting, settled_by=None, idempotency_key=new_key()).answer.body
    returns = [(t["to"], t["amount"]) for t in answer["transfers"] if t["from"] == "pool"]
    assert returns == [("An", 9), ("Bình", 9), ("Chi", 8), ("Dũng", 8), ("Em", 8)]
    final = balances(sitting)
    assert (final.players, final.pool, final.ga_trong) == (dict.fromkeys(final.players, 0), 0, 0)


def test_a_settled_sitting_takes_no_more_van_nor_corrections() -> None:
    sitting = open_sitting()
    (van,) = record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}])
    sitting_settle_up(sitting=sitting, settled_by=None, idempotency_key=new_key())
    with pytest.raises(SittingClosed):
        van_record(sitting=sitting, seq=2, record={"result": "hoa"}, idempotency_key=new_key())
    with pytest.raises(SittingClosed):
        van_correct(
            van=van, record={"result": "hoa"}, reason="x", corrected_by=None, idempotency_key=new_key()
        )
    with pytest.raises(SittingClosed):
        sitting_settle_up(sitting=sitting, settled_by=None, idempotency_key=new_key())
