"""The events API's writes, each idempotent by the caller's ``Idempotency-Key`` (as every write of
the sổ điểm's API is; :mod:`scoring.services.idempotency`): a repeat answers the first answer and
writes nothing, the same key with another request is refused. The work itself is the pages'
services (:func:`registration_add`, :func:`check_in`, :func:`round_seat`)."""

from __future__ import annotations

from typing import Any

from scoring.services.idempotency import Answer, Outcome, run_once
from scoring.services.people import Written
from tournaments.models import Event, Registration, Round
from tournaments.selectors.api import registration_json, round_json
from tournaments.services.events import check_in, registration_add
from tournaments.services.rounds import round_seat

__all__ = ["registration_add_once", "round_seat_once"]


def _lock(event: Event) -> Any:
    return lambda: Event.objects.select_for_update(no_key=True).filter(pk=event.pk).exists()


def registration_add_once(
    *, event: Event, name: str, team: str, checked_in: bool, by: Any, idempotency_key: str
) -> Written[Registration]:
    """Register a player by name (and check them in, ``checked_in``), once per key."""

    def action() -> Answer:
        reg = registration_add(event=event, name=name, team=team, by=by)
        if checked_in:
            reg = check_in(registration=reg, by=by)
        return Answer(Outcome.CREATED, registration_json(reg))

    answer = run_once(
        key=idempotency_key,
        operation="registration_add",
        target=event.pk,
        payload={"name": name, "team": team, "check_in": checked_in},
        action=action,
        lock=_lock(event),
    )
    return Written(None, answer, load=lambda: Registration.objects.get(pk=answer.body["id"]))


def round_seat_once(
    *, event: Event, method: str, remainder: str, seed: int | None, force: bool, by: Any, idempotency_key: str
) -> Written[Round]:
    """Seat the next round once per key; refused while tables of the previous round are open,
    unless ``force`` (:class:`tournaments.services.rounds.PreviousRoundOpen`)."""

    def action() -> Answer:
        rnd = round_seat(
            event=event, method=method, remainder=remainder, seed=seed, created_by=by, refuse_open=not force
        )
        return Answer(Outcome.CREATED, round_json(rnd))

    answer = run_once(
        key=idempotency_key,
        operation="round_seat",
        target=event.pk,
        payload={"method": method, "remainder": remainder, "seed": seed, "force": force},
        action=action,
        lock=_lock(event),
    )
    return Written(None, answer, load=lambda: Round.objects.get(event=event, number=answer.body["number"]))
