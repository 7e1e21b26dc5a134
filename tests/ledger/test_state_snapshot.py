"""The stored state snapshot: a ván starts from the state after the sitting's current ván instead
of replaying them all; it is used only while it was folded from exactly those ván, so a correction
(new ids) or a stale snapshot can never change a balance."""

from __future__ import annotations

import json

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
    current = current_van(sitting=sitting)
    assert sitting.state_snapshot["key"] == [len(current), max(v.pk for v in current)]
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
    Sitting.objects.filter(pk=sitting.pk).update(state_snapshot={"key": [2, 2], "state": wrong.to_json()})
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


def test_a_snapshot_with_the_right_count_but_an_older_newest_van_is_ignored() -> None:
    """A write that changed which ván are current without keeping the snapshot (a correction, say)
    always made a newer ván row: the count alone does not vouch for the snapshot."""
    sitting = open_sitting()
    record_all(sitting, WINS[:3])
    newest = Van.objects.filter(sitting=sitting).order_by("-id").first()
    assert newest is not None
    wrong = SittingState(players=("An", "Bình", "Chi", "Dũng", "Em"), balances=(999, -999, 0, 0, 0))
    stale = {"key": [3, newest.pk - 1], "state": wrong.to_json()}
    Sitting.objects.filter(pk=sitting.pk).update(state_snapshot=stale)
    van_record(sitting=sitting, seq=4, record={"winner": "Em", "cuoc": ["tom"]}, idempotency_key=None)
    assert ledger_differences(sitting) == []
    sitting.refresh_from_db()
    assert 999 not in SittingState.from_json(sitting.state_snapshot["state"]).balances


def test_the_snapshot_does_not_grow_with_the_sitting() -> None:
    """Each ván rewrites the snapshot: its size stays that of one state, however many ván came
    before (a list of every ván id made a 10,000-ván import rewrite ~60 KB a ván)."""
    sitting = open_sitting()
    record_all(sitting, WINS[:2])
    sitting.refresh_from_db()
    short = len(json.dumps(sitting.state_snapshot))
    record_all(sitting, (WINS * 12)[2:60])
    sitting.refresh_from_db()
    assert len(json.dumps(sitting.state_snapshot)) < short + 40


def test_a_replay_writes_the_snapshot_once_and_the_next_van_starts_from_it() -> None:
    """A replay records every ván in one transaction: the snapshot is written once, at the end (on
    PostgreSQL each UPDATE of the sitting's row in an open transaction leaves a version every later
    read walks, which made a long replay quadratic), and it is the state after the last ván."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from scoring.services.replay import sitting_replay

    request = {"game": "to-tom-5", "rules": "luat-2005", "players": ["An", "Bình", "Chi", "Dũng", "Em"]}
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        sitting, _ = sitting_replay(request={**request, "van": (WINS * 8)[:40]}, title="Sổ dài")
    writes = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].startswith("UPDATE") and "state_snapshot" in q["sql"]
    ]
    assert len(writes) == 1, writes
    sitting.refresh_from_db()
    assert sitting.state_snapshot["key"][0] == 40
    assert SittingState.from_json(sitting.state_snapshot["state"]) == _replayed(sitting)
    van_record(sitting=sitting, seq=41, record={"winner": "Em", "cuoc": ["tom"]}, idempotency_key=None)
    assert ledger_differences(sitting) == []
    sitting.refresh_from_db()
    assert SittingState.from_json(sitting.state_snapshot["state"]) == _replayed(sitting)


def test_a_replay_that_fails_midway_leaves_no_snapshot_behind() -> None:
    from django.db import transaction

    from scoring.engine.errors import EngineError
    from scoring.services.replay import sitting_replay

    request = {"game": "to-tom-5", "rules": "luat-2005", "players": ["An", "Bình", "Chi", "Dũng", "Em"]}
    bad = [*WINS, {"winner": "Không-có-ai", "cuoc": ["tom"]}]
    with pytest.raises(EngineError), transaction.atomic():
        sitting_replay(request={**request, "van": bad}, title="Sổ hỏng")
    assert not Sitting.objects.filter(title="Sổ hỏng").exists()
