"""Events in the API, under the roles of the pages:

* ``GET /api/v1/events``, ``GET /api/v1/events/{slug}``, ``…/standings``, ``…/tables``: whoever may
  see the event (a public event: anyone; a private one: its organisers, role holders and registered
  players, as ``tournaments.view_event`` says; anyone else gets 404, as on the pages);
* ``POST …/registrations`` and ``POST …/rounds``: its organisers (``tournaments.manage_event``), each
  with an ``Idempotency-Key``, through the pages' own services. Seating is refused (409, naming
  the tables) while tables of the previous round are still open, unless ``"force": true``.

A platform token (``Authorization: Bearer …``) reaches public events and its own event only, and
writes only if it is a write token of that event. Messages follow ``Accept-Language`` (vi, en).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api.access import PUBLIC, SIGNED_IN, LedgerView
from scoring.api.ledger import _body
from scoring.engine import MAX_PLAYER_NAME, N_, EngineError
from scoring.permissions import credential_scope
from tournaments.api import schemas as sc
from tournaments.api.common import event_for, keyed_write
from tournaments.seating import Method, Remainder
from tournaments.selectors.api import (
    event_detail_json,
    event_json,
    events_listed,
    standings_json,
    tables_json,
)
from tournaments.selectors.pages import visible_events
from tournaments.services.keyed import registration_add_once, round_seat_once

__all__ = ["EventDetailView", "EventsView", "RegistrationsView", "RoundsView", "StandingsView", "TablesView"]

TAGS = ["Giải đấu / events"]
READ = (400, 401, 404, 429)
WRITE = (400, 401, 403, 404, 415, 422, 429)
#: At most this many events are listed (the newest first), as on the events page.
LISTED = 100


class EventsView(LedgerView):
    needs = {"GET": PUBLIC}

    @extend_schema(
        operation_id="events_list",
        summary="Các giải người gọi được xem (mới nhất trước)",
        parameters=[sc.LANGUAGE],
        tags=TAGS,
        responses=sc.answers({200: sc.Event.__class__(many=True)}, 401, 429),
    )
    def get(self, request: Request) -> Response:
        events = visible_events(request.user)
        scope = credential_scope(request)
        if scope is not None:  # a platform token: public events and its own
            own = getattr(scope, "event_id", None)
            events = (
                events.filter(is_public=True) | events.filter(pk=own)
                if own
                else events.filter(is_public=True)
            )
        return Response([event_json(e) for e in events_listed(events).order_by("-date", "-id")[:LISTED]])


class EventDetailView(LedgerView):
    needs = {"GET": PUBLIC}

    @extend_schema(
        operation_id="events_detail",
        summary="Một giải: thể thức, số người đăng ký, các vòng",
        parameters=[sc.LANGUAGE],
        tags=TAGS,
        responses=sc.answers({200: sc.EventDetail}, 401, 404, 429),
    )
    def get(self, request: Request, slug: str) -> Response:
        event = event_for(request, slug)
        manage = request.user.has_perm("tournaments.manage_event", event)
        return Response(event_detail_json(event, can_manage=bool(manage)))


class StandingsView(LedgerView):
    needs = {"GET": PUBLIC}

    @extend_schema(
        operation_id="events_standings",
        summary="Bảng xếp hạng như đã lưu (như trang bảng điểm), với độ mới: số lần sổ, lúc tính, có đang chờ tính lại",
        parameters=[sc.LANGUAGE],
        tags=TAGS,
        responses=sc.answers({200: sc.Standings}, 401, 404, 429),
    )
    def get(self, request: Request, slug: str) -> Response:
        return Response(standings_json(event_for(request, slug)))


class TablesView(LedgerView):
    needs = {"GET": PUBLIC}

    @extend_schema(
        operation_id="events_tables",
        summary="Các chiếu (mọi vòng, hoặc ?round=N): người ngồi, các canh, số ván",
        parameters=[sc.ROUND, sc.LANGUAGE],
        tags=TAGS,
        responses=sc.answers({200: sc.Table.__class__(many=True)}, *READ),
    )
    def get(self, request: Request, slug: str) -> Response:
        event = event_for(request, slug)
        raw = request.query_params.get("round")
        if raw is not None and not (
            raw.isascii() and raw.isdigit() and len(raw) <= 5 and 1 <= int(raw) <= sc.MAX_ROUND
        ):
            raise EngineError(N_("'round' phải là số vòng (nhận được {value})."), value=repr(raw[:40]))
        return Response(tables_json(event, round_number=int(raw) if raw is not None else None))


def _bool(body: dict[str, Any], key: str) -> bool:
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise EngineError(N_("'{key}' phải là true hoặc false."), key=key)
    return value


def _closed(body: dict[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise EngineError(
            N_("Khóa không hợp lệ: {keys}. Các khóa được dùng: {allowed}."),
            keys=", ".join(unknown),
            allowed=", ".join(sorted(allowed)),
        )


def _string(body: dict[str, Any], key: str) -> str:
    value = body.get(key, "")
    if not isinstance(value, str):
        raise EngineError(N_("'{key}' phải là một chuỗi."), key=key)
    return value


class RegistrationsView(LedgerView):
    needs = {"POST": SIGNED_IN}
    scoped = frozenset({"POST"})  # event_for(manage=True) asks the token's scope

    @extend_schema(
        operation_id="events_registrations_create",
        summary="Đăng ký một người chơi (ban tổ chức), có thể điểm danh luôn",
        parameters=[sc.IDEMPOTENCY_KEY, sc.LANGUAGE],
        request=sc.RegistrationCreate,
        tags=TAGS,
        responses=sc.answers({201: sc.Registration}, *WRITE, 409),
        examples=[
            OpenApiExample(
                "Đăng ký", value={"name": "Cụ Lý", "team": "Giáp Đông", "check_in": True}, request_only=True
            )
        ],
    )
    def post(self, request: Request, slug: str) -> Response:
        event = event_for(request, slug, manage=True)
        body = _body(request)
        _closed(body, {"name", "team", "check_in"})
        name, team, checked_in = _string(body, "name"), _string(body, "team"), _bool(body, "check_in")
        if not name.strip():
            raise EngineError(N_("Hãy nhập tên người chơi."))
        for key, value, most in (("name", name.strip(), MAX_PLAYER_NAME), ("team", team, 120)):
            if len(value) > most:  # refused, never cut: the schema's maxLength
                raise EngineError(N_("'{key}' dài quá {most} ký tự."), key=key, most=most)
        return keyed_write(
            request,
            lambda key: registration_add_once(
                event=event,
                name=name.strip(),
                team=team,
                checked_in=checked_in,
                by=request.user,
                idempotency_key=key,
            ),
        )


class RoundsView(LedgerView):
    needs = {"POST": SIGNED_IN}
    scoped = frozenset({"POST"})

    @extend_schema(
        operation_id="events_rounds_create",
        summary="Xếp chỗ vòng tiếp theo (ban tổ chức); từ chối (409) khi vòng trước còn chiếu đang chơi, trừ khi force",
        parameters=[sc.IDEMPOTENCY_KEY, sc.LANGUAGE],
        request=sc.RoundCreate,
        tags=TAGS,
        responses=sc.answers({201: sc.Round}, *WRITE, 409, bodies={409: sc.RoundOpen}),
        examples=[
            OpenApiExample("Bốc thăm", value={"method": "random", "remainder": "bye"}, request_only=True)
        ],
    )
    def post(self, request: Request, slug: str) -> Response:
        event = event_for(request, slug, manage=True)
        body = _body(request)
        _closed(body, {"method", "remainder", "seed", "force"})
        method = body.get("method", Method.RANDOM.value)
        remainder = body.get("remainder", Remainder.BYE.value)
        if method not in [m.value for m in Method] or remainder not in [r.value for r in Remainder]:
            raise EngineError(
                N_(
                    "Cách xếp chỗ không hợp lệ: 'method' là random, rotation hoặc standings; "
                    "'remainder' là bye hoặc smaller."
                )
            )
        seed = body.get("seed")
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**31
        ):
            raise EngineError(N_("'seed' phải là một số nguyên từ 0 đến 2147483647."))
        force = _bool(body, "force")
        return keyed_write(
            request,
            lambda key: round_seat_once(
                event=event,
                method=method,
                remainder=remainder,
                seed=seed,
                force=force,
                by=request.user,
                idempotency_key=key,
            ),
        )
