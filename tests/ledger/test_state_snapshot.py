"""The stored state snapshot: a ván starts from the state after the sitting's current ván instead
of replaying them all; it is used only while it was folded from exactly those ván, so a correction
(new ids) or a stale snapshot can never change a balance."""

from __future__ import annotations

import pytest

from scoring.engine.settlement.types import SittingState
from scoring.models import Sitting, Van
from scoring.selectors.ledger import ledger_differences
from scoring.services.ledger import current_van, fold
from scoring.services.sittings import van_correct, van_record
from tests.factories import open_sitting, record_all

pytestmark = pytest.mark.django_db

WINS = [
    {"winner": "An", "cuoc": ["tom"], "discarder": "Bình"},
    {"winner": "An", "cuoc": ["leo"]},
    {"winner": "Chi", "cuoc": ["thap_dieu"], "discarder": "Em"},
    {"result": "hoa"},
    {"winner": "Dũng", "cuoc": ["chi_nay"]},
]


def _replayed(sitting: Sitting) -> SittingState:
    return fold(sitting=sitting, records=[v.record for v in current_van(sitting=sitting)]).state


@pytest.mark.parametrize("mode", ["quang", "gom"])
def test_the_snapshot_is_the_state_after_the_current_van(mode: str) -> None:
    sitting = open_sitting(mode=mode)
    record_all(sitting, WINS)
    sitting.refresh_from_db()
    assert sitting.state_snapshot["van"] == [v.pk for v in current_van(sitting=sitting)]
    assert SittingState.from_json(sitting.state_snapshot["state"]) == _replayed(sitting)


def test_after_a_correction_the_next_van_is_settled_from_the_corrected_history() -> None:
    sitting = open_sitting()
    record_all(sitting, WINS)
    second = Van.objects.get(sitting=sitting, seq=2, is_current=True)
    van_correct(
        van=second,
        record={"winner": "Bình", "cuoc": ["tom"]},
        reason="ghi nhầm người ù",
        corrected_by=None,
        idempotency_key=None,
    )
    van_record(sitting=sitting, seq=6, record={"winner": "Bình", "cuoc": ["tom"]}, idempotency_key=None)
    sitting.refresh_from_db()
    assert ledger_differences(sitting) == []
    assert Van.objects.get(sitting=sitting, seq=6).streak == _replayed(sitting).streak
    assert SittingState.from_json(sitting.state_snapshot["state"]) == _replayed(sitting)


def test_a_snapshot_of_other_van_is_ignored() -> None:
    sitting = open_sitting()
    record_all(sitting, WINS[:3])
    wrong = SittingState(players=("An", "Bình", "Chi", "Dũng", "Em"), balances=(999, -999, 0, 0, 0))
    Sitting.objects.filter(pk=sitting.pk).update(state_snapshot={"van": [1, 2], "state": wrong.to_json()})
    van_record(sitting=sitting, seq=4, record={"winner": "Em", "cuoc": ["tom"]}, idempotency_key=None)
    sitting.refresh_from_db()
    assert ledger_differences(sitting) == []
    assert 999 not in SittingState.from_json(sitting.state_snapshot["state"]).balances


def test_the_json_form_reads_back_equal_for_every_state_of_a_sitting() -> None:
    sitting = open_sitting(mode="gom")
    record_all(sitting, WINS)
    folded = fold(sitting=sitting, records=[v.record for v in current_van(sitting=sitting)])
    for settled in folded.settlements:
        assert SittingState.from_json(settled.state.to_json()) == settled.state
