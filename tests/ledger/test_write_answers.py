"""A ván's write answers from what it just posted (the engine's state and transfers), not by reading
the ledger back: the answer must still be exactly what the ledger then reads. Every hand-worked
case of tests/ledger/cases.py (every outcome, penalty and pot, both money modes, every game), and
random sittings with corrections in between (the stored state is refolded after a correction)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scoring.engine.settlement import rules_with_overrides
from scoring.models import Sitting, Van
from scoring.selectors.ledger import sitting_state_json, van_json
from scoring.services.rules import resolve_rules
from scoring.services.sittings import sitting_open, van_correct, van_record
from tests.factories import new_key
from tests.ledger.cases import ALL
from tests.reliability.vanmix import Script

pytestmark = pytest.mark.django_db


def _read_back(sitting: Sitting, van_id: int) -> dict[str, Any]:
    van = Van.objects.select_related("sitting", "winner", "entered_by").get(pk=van_id)
    return {"van": van_json(van), "sitting": sitting_state_json(Sitting.objects.get(pk=sitting.pk))}


def _open(request: dict[str, Any]) -> Sitting:
    return sitting_open(
        game=request["game"],
        rules=rules_with_overrides(request, resolve_rules),
        mode=request.get("mode", "quang"),
        players=request["players"],
        idempotency_key=new_key(),
    ).obj


@pytest.mark.parametrize("case", ALL, ids=[c["name"] for c in ALL])
def test_each_van_answer_is_what_the_ledger_reads_back(case: dict[str, Any]) -> None:
    request = case["request"]
    sitting = _open(request)
    for seq, record in enumerate(request["van"], start=1):
        written = van_record(sitting=sitting, seq=seq, record=record, idempotency_key=new_key())
        assert written.answer.body == _read_back(sitting, written.answer.body["van"]["id"]), f"ván {seq}"
        assert written.obj.seq == seq
    last = written.answer.body["sitting"]
    assert (last["balances"], last["pool"], last["ga_trong"]) == (
        case["balances"],
        case["pool"],
        case["ga_trong"],
    )


@pytest.mark.parametrize("mode", ["quang", "gom"])
def test_answers_stay_equal_to_the_ledger_across_corrections(mode: str) -> None:
    rng = random.Random(f"answers-{mode}")
    script = Script(mode="gom", gom=10) if mode == "gom" else Script()
    records = script.grow(rng, 24)
    sitting = _open(script.request())
    for seq, record in enumerate(records, start=1):
        written = van_record(sitting=sitting, seq=seq, record=record, idempotency_key=new_key())
        assert written.answer.body == _read_back(sitting, written.answer.body["van"]["id"]), f"ván {seq}"
        if seq % 7 == 0:
            # Correct an earlier ván to what it already was (always valid): reversals and reposts,
            # the stored state no longer matches the current ván ids, the next write refolds.
            target = rng.randint(1, seq)
            van_correct(
                van=Van.objects.get(sitting=sitting, seq=target, is_current=True),
                record=records[target - 1],
                reason="Ghi lại cho chắc",
                corrected_by=None,
                idempotency_key=new_key(),
            )


def test_a_repeated_key_answers_the_same_and_reads_the_van_back() -> None:
    sitting = _open(
        {
            "game": "to-tom-5",
            "rules": "luat-2005",
            "mode": "quang",
            "players": ["An", "Bình", "Chi", "Dũng", "Em"],
        }
    )
    key = new_key()
    first = van_record(sitting=sitting, seq=1, record={"winner": "An", "cuoc": ["tom"]}, idempotency_key=key)
    again = van_record(sitting=sitting, seq=1, record={"winner": "An", "cuoc": ["tom"]}, idempotency_key=key)
    assert again.answer.replayed and again.answer.body == first.answer.body
    assert again.obj.pk == first.obj.pk and sitting.van.count() == 1
