"""A sitting played online, imported whole (``POST /api/v1/sittings/import``).

The request is ``manage.py replay``'s JSON (game, rules, mode, players, ván; the optional gom /
gà overrides) plus where it belongs: ``"club"`` (a club's slug: a new sitting of that club) or
``"table"`` (an event table's id: the table's current canh, still empty, with the same game, rule
set, mode and seats), and optionally ``"platform"`` and ``"title"``.

Every ván is checked by the engine first (:func:`scoring.services.replay.replay_check`: the first
bad ván is named by its number); then everything is written in one transaction, or nothing, by
the ledger's own replay service (:func:`scoring.services.replay.sitting_replay`) — at an event
table through the events app's recording path (:func:`tournaments.services.van.event_van_record`),
so the table's round and canh rules hold and the leaderboard is recomputed. The answer is the
replay's answer plus the ids; a repeat with the same ``Idempotency-Key`` answers it again and
writes nothing. The import is recorded (:class:`SittingImport`: who, from which platform, with
which token) for the audit trails, and announced to webhooks as one ``van.recorded`` after commit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from scoring.engine import N_, REPLAY_KEYS, EngineError
from scoring.models import Club, Sitting, Van
from scoring.services.idempotency import Answer, Outcome, run_once
from scoring.services.people import Written, acting_user
from scoring.services.replay import ReplayConflict, replay_check, sitting_replay
from tournaments.models import RoundFormat, Table
from tournaments.online.models import HookEvent, PlatformToken, SittingImport
from tournaments.online.services import webhooks
from tournaments.services.tables import locked_table, table_van
from tournaments.services.van import event_van_record

__all__ = ["IMPORT_KEYS", "one_place", "replay_part", "sitting_import"]

#: The keys of an import besides the replay's own.
PLACE_KEYS = frozenset({"club", "table", "event", "platform", "title"})
IMPORT_KEYS = REPLAY_KEYS | PLACE_KEYS


def replay_part(*, body: Mapping[str, Any]) -> dict[str, Any]:
    """The replay request inside an import (unknown keys refused, naming them)."""
    unknown = sorted(set(body) - IMPORT_KEYS)
    if unknown:
        raise EngineError(
            N_("Khóa không hợp lệ: {keys}. Các khóa được dùng: {allowed}."),
            keys=", ".join(unknown),
            allowed=", ".join(sorted(IMPORT_KEYS)),
        )
    return {k: v for k, v in body.items() if k in REPLAY_KEYS}


def _text(body: Mapping[str, Any], key: str, limit: int) -> str:
    value = body.get(key)
    if value in (None, ""):
        return ""
    if not isinstance(value, str):
        raise EngineError(N_("'{key}' phải là một chuỗi."), key=key)
    if len(value) > limit:
        raise EngineError(N_("'{key}' dài quá {limit} ký tự."), key=key, limit=limit)
    return value.strip()


def one_place(*, club: Club | None, table: Table | None) -> None:
    """An import goes to a club (a new sitting) or to an event table, exactly one of the two."""
    if (club is None) == (table is None):
        raise EngineError(
            N_("Hãy cho biết canh bài thuộc làng nào ('club') hoặc chiếu nào của giải ('table').")
        )


def _fits_table(table: Table, count: int) -> None:
    """The round's rules at the table: open, room for the ván, and no more ván than one canh holds."""
    event = table.event
    if table.closed_at is not None:
        raise ReplayConflict(N_("Chiếu {n} đã đóng: không nhập ván vào được."), n=table.number)
    if event.round_format == RoundFormat.VAN:
        room = event.van_per_round - table_van(table=table)
        if count > room:
            raise EngineError(
                N_(
                    "Vòng này mỗi chiếu chơi {limit} ván; chiếu {n} chỉ còn chỗ cho {room} ván, canh "
                    "được nhập có {count} ván."
                ),
                limit=event.van_per_round,
                n=table.number,
                room=room,
                count=count,
            )
    if event.van_per_sitting and count > event.van_per_sitting:
        raise EngineError(
            N_("Giải này mỗi canh {limit} ván: hãy nhập từng canh một (canh được nhập có {count} ván)."),
            limit=event.van_per_sitting,
            count=count,
        )


def sitting_import(
    *,
    body: Mapping[str, Any],
    by: Any,
    idempotency_key: str,
    club: Club | None = None,
    table: Table | None = None,
    token: PlatformToken | None = None,
) -> Written[Sitting]:
    """Import ``body`` into ``club`` (a new sitting) or ``table`` (its current, empty canh)."""
    one_place(club=club, table=table)
    request = replay_part(body=body)
    platform = _text(body, "platform", 80) or (token.label if token is not None else "") or "API"
    title = _text(body, "title", 160)
    replay_check(request=request)  # every ván, before anything is written
    user = acting_user(user=by)
    box: dict[str, Any] = {}

    def lock() -> None:
        if table is not None:
            box["table"] = locked_table(table=table)

    def action() -> Answer:
        if table is None:
            sitting, result = sitting_replay(request=request, created_by=user, club=club, title=title)
            where: dict[str, Any] = {"club": club.slug if club else None, "event": None, "table_id": None}
        else:
            the_table = box["table"]
            _fits_table(the_table, len(request["van"]))

            def record(s: Sitting, seq: int, van: Mapping[str, Any]) -> Van:
                return event_van_record(
                    table=the_table, seq=seq, record=van, idempotency_key=None, entered_by=user, sitting=s.pk
                ).obj

            into = Sitting.objects.select_related("rules").get(pk=the_table.sitting_id)
            sitting, result = sitting_replay(request=request, created_by=user, into=into, record=record)
            where = {"club": None, "event": the_table.event.slug, "table_id": the_table.pk}
        vans = list(
            Van.objects.filter(sitting=sitting, is_current=True).select_related("winner").order_by("seq")
        )
        imported = SittingImport.objects.create(
            sitting=sitting,
            platform=platform,
            imported_by=user,
            token=token,
            table=box.get("table"),
            van_count=len(vans),
            last_van_id=max((v.pk for v in vans), default=None),
        )
        box["sitting"] = sitting
        transaction.on_commit(lambda: _announce(sitting.pk, vans))
        return Answer(
            Outcome.CREATED,
            {
                **result,
                "sitting_id": sitting.pk,
                "van_ids": [v.pk for v in vans],
                "import_id": imported.pk,
                "platform": platform,
                **where,
            },
        )

    target = ["club", club.pk] if club is not None else ["table", table.pk]  # type: ignore[union-attr]
    answer = run_once(
        key=idempotency_key,
        operation="sitting_import",
        target=target,
        payload=dict(body),
        action=action,
        lock=lock,
    )
    if answer.replayed:
        return Written(None, answer, load=lambda: Sitting.objects.get(pk=answer.body["sitting_id"]))
    return Written(box["sitting"], answer)


def _announce(sitting_id: int, vans: list[Van]) -> None:
    """One ``van.recorded`` for the whole import (the ván's own announcements stand aside)."""
    hooks = webhooks.hooks_of_sitting(sitting_id=sitting_id)
    if any(HookEvent.VAN_RECORDED in h.events for h in hooks):
        webhooks.emit(
            kind=HookEvent.VAN_RECORDED,
            hooks=hooks,
            data={
                **webhooks.sitting_context(sitting_id=sitting_id),
                "imported": True,
                "van": webhooks.van_rows(vans=vans),
            },
        )
