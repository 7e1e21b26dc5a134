"""What every fault test asserts about the sittings it wrote: nothing lost, nothing doubled,
balances equal the engine's replay, and ``ledger_check`` finds no difference."""

from __future__ import annotations

from typing import Any

from scoring.engine.settlement import rules_with_overrides
from scoring.models import IdempotencyKey, Sitting, Van
from scoring.selectors.ledger import balances, ledger_differences
from tests.factories import open_sitting
from tests.reliability.harness import keeper_club
from tests.reliability.vanmix import Script


def open_for(script: Script, *, keeper: Any) -> Sitting:
    """Open the sitting a script's ván are posted to (its gom override in the rule set), as the
    scorekeeper whose phones post them."""
    return open_sitting(
        game=script.game,
        rules=rules_with_overrides(script.request()),
        mode=script.mode,
        players=script.players,
        created_by=keeper,
        club=keeper_club(keeper),
    )


def ledger_problems(sitting: Sitting, script: Script, keys: list[str]) -> list[str]:
    """Every way the stored sitting differs from exactly-once delivery of the script's ván."""
    label = f"sitting {sitting.pk}"
    problems = []
    stored = list(
        Van.objects.filter(sitting=sitting).order_by("seq", "id").values_list("seq", "record", "is_current")
    )
    if [seq for seq, _, _ in stored] != list(range(1, len(script.van) + 1)):
        lost = sorted(set(range(1, len(script.van) + 1)) - {seq for seq, _, _ in stored})
        problems.append(f"{label}: ván numbers {[s for s, _, _ in stored][:20]}…; lost {lost[:20]}")
    if [record for _, record, _ in stored] != script.van:
        problems.append(f"{label}: the stored records differ from the ones posted")
    if not all(current for _, _, current in stored):
        problems.append(f"{label}: a ván was superseded, none was corrected")
    answered = IdempotencyKey.objects.filter(key__in=keys).count()
    if answered != len(keys):
        problems.append(f"{label}: {answered} stored answers for {len(keys)} keys")
    expected = script.expected()
    got = balances(sitting).to_dict()
    want = {"balances": expected["balances"], "pool": expected["pool"], "ga_trong": expected["ga_trong"]}
    if got != want:
        problems.append(f"{label}: balances {got} != replay {want}")
    problems += ledger_differences(sitting)
    return problems
