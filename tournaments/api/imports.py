"""``POST /api/v1/sittings/import``: a sitting played online, imported whole (the JSON of
``manage.py replay`` plus the club or the event table it belongs to), with an ``Idempotency-Key``.

Who may: for a club, those who may open sittings there (its organisers and scorekeepers); for an
event table, those who may keep score at it (the event's organisers and scorekeepers). A platform
token must be a write token of that club or of that table's event. Answers: 201 with the replay's
answer plus the ids; 400 a bad request (unknown key, rule set, seats that do not match the table);
422 the first bad ván (``{"error": …, "van": n}``) or a key reused for another request; 409 a table
closed or whose canh already has ván; 401/403/404 as everywhere.

Above ``IMPORT_JOB_THRESHOLD`` ván (200 by default) the import is a job on the bulk lane: 202 with
``Location: /api/v1/jobs/{id}`` and the job (state, progress); the same Idempotency-Key answers
the same job. ``GET /api/v1/jobs/{id}`` (its owner only) gives the state (queued, running, done,
failed), the progress (ván written / sent), when done the sitting's id and the 201's answer, when
failed the refusal (422 naming the first bad ván). The sitting appears only when all of it is in.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api.access import SIGNED_IN, LedgerView
from scoring.api.ledger import _body, _club
from scoring.engine import N_, EngineError
from scoring.models import Club
from scoring.permissions import credential_scope
from scoring.services.quotas import charge_import
from tournaments.access import NO_EVENT
from tournaments.api import schemas as sc
from tournaments.api.common import keyed_write, scope_allows_event
from tournaments.models import Table
from tournaments.online.models import ImportJob
from tournaments.online.services.import_jobs import import_job_start, is_big, job_json
from tournaments.online.services.imports import sitting_import
from tournaments.permissions import visible

__all__ = ["JobView", "SittingImportView"]

EXAMPLE = {
    "game": "to-tom-5",
    "rules": "luat-2005",
    "mode": "quang",
    "players": ["An", "Bình", "Chi", "Dũng", "Em"],
    "van": [{"winner": "An", "cuoc": ["tom"], "discarder": "Bình"}, {"winner": "Chi", "cuoc": ["leo"]}],
    "club": "lang-dong",
    "platform": "Chiếu Online",
}


def _table(request: Request, body: dict[str, Any]) -> Table:
    value = body.get("table")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**63:
        raise EngineError(N_("'table' phải là mã số của một chiếu (xem GET /api/v1/events/{slug}/tables)."))
    table = Table.objects.select_related("event").filter(pk=value).first()
    # A table whose event the caller may not see is answered as no table at all, before its slug is
    # compared: a wrong "event" must not tell a private event's table from a missing one.
    seen = visible(request.user, table.event if table is not None else NO_EVENT)
    if table is None or not seen:
        raise LookupError(gettext("Không có chiếu số %(n)s.") % {"n": value})
    event = body.get("event")
    if event not in (None, "") and (not isinstance(event, str) or table.event.slug != event):
        raise EngineError(N_("Chiếu số {n} không thuộc giải '{event}'."), n=value, event=event)
    return table


class SittingImportView(LedgerView):
    needs = {"POST": SIGNED_IN}
    scoped = frozenset({"POST"})  # the club or the table's event must be the token's

    @extend_schema(
        operation_id="sittings_import",
        summary="Nhập cả một canh bài chơi trực tuyến (như manage.py replay), vào một làng hoặc một chiếu của giải",
        description=__doc__,
        parameters=[
            sc.IDEMPOTENCY_KEY,
            sc.LANGUAGE,
            OpenApiParameter(
                "Location", str, OpenApiParameter.HEADER, description="/api/v1/jobs/{id}", response=[202]
            ),
        ],
        request=sc.ImportRequest,
        responses=sc.answers(
            {
                201: sc.Imported,
                202: OpenApiResponse(
                    sc.Job,
                    description="Lớn hơn ngưỡng: một việc nền (tiêu đề Location: /api/v1/jobs/{id}) / a job",
                ),
            },
            400,
            401,
            403,
            404,
            409,
            413,
            415,
            422,
            429,
            bodies={422: sc.BadVan},
        ),
        examples=[OpenApiExample("Canh của làng", value=EXAMPLE, request_only=True)],
        tags=["Sổ điểm / ledger"],
    )
    def post(self, request: Request) -> Response:
        scope = credential_scope(request)
        club: Club | None = None
        table: Table | None = None
        try:
            body = _body(request)
            if body.get("table") not in (None, "") and body.get("club") not in (None, ""):
                raise EngineError(
                    N_("Một canh bài thuộc một làng ('club') hoặc một chiếu ('table'), không cả hai.")
                )
            event = body.get("event")
            if event is not None and (
                not isinstance(event, str) or (event and body.get("table") in (None, ""))
            ):
                raise EngineError(
                    N_("'event' là mã giải của chiếu ('table'), một chuỗi; bỏ trống khi nhập vào một làng.")
                )
            if body.get("table") not in (None, ""):
                table = _table(request, body)
            else:
                club = _club(body.get("club"))
                if club is None:
                    raise EngineError(
                        N_("Hãy cho biết canh bài thuộc làng nào ('club') hoặc chiếu nào của giải ('table').")
                    )
        except LookupError as exc:
            raise exceptions.NotFound(str(exc.args[0])) from exc
        user = request.user
        if club is not None and not (
            user.has_perm("scoring.open_sitting", club) and (scope is None or scope.allows_club(club.pk))
        ):
            raise exceptions.PermissionDenied(
                gettext(
                    "Bạn không nhập được canh bài vào '%(club)s': chỉ chủ sổ và thư ký ghi điểm của nơi "
                    "đó (hoặc mã nền tảng ghi của nơi đó) mới nhập được."
                )
                % {"club": club.name}
            )
        if table is not None:
            allowed = user.has_perm("tournaments.keep_score_at", table) and scope_allows_event(
                request, table.event
            )
            if not allowed:
                if not (table.event.is_public or user.has_perm("tournaments.view_event", table.event)):
                    raise exceptions.NotFound(gettext("Không có chiếu số %(n)s.") % {"n": table.pk})
                raise exceptions.PermissionDenied(
                    gettext(
                        "Chỉ ban tổ chức và thư ký ghi điểm của giải (hoặc mã nền tảng ghi của giải) mới "
                        "nhập được canh bài vào chiếu này."
                    )
                )
        charge_import(
            request=request, body=body, club=club, sitting=table.sitting if table is not None else None
        )
        token = request.auth if scope is not None else None
        if is_big(body=body):  # a job on the bulk lane: 202 and where to follow it
            response = keyed_write(
                request,
                lambda key: import_job_start(
                    body=body, by=user, idempotency_key=key, club=club, table=table, token=token
                ),
            )
            if response.status_code == status.HTTP_202_ACCEPTED:
                response["Location"] = response.data["location"]
            return response
        return keyed_write(
            request,
            lambda key: sitting_import(
                body=body, by=user, idempotency_key=key, club=club, table=table, token=token
            ),
        )


class JobView(LedgerView):
    """``GET /api/v1/jobs/{id}``: a big import's job, to its owner (anyone else: 404)."""

    needs = {"GET": SIGNED_IN}
    scoped = frozenset({"GET"})  # a platform token reads the jobs of the account that made it

    @extend_schema(
        operation_id="jobs_detail",
        summary="Một việc nền (nhập canh bài lớn): trạng thái, tiến độ, canh bài khi xong, lỗi khi không thành",
        description=__doc__,
        parameters=[sc.LANGUAGE],
        responses=sc.answers({200: sc.Job}, 401, 403, 404, 429),
        tags=["Sổ điểm / ledger"],
    )
    def get(self, request: Request, pk: int) -> Response:
        job = ImportJob.objects.filter(pk=pk, owner_id=request.user.pk).first() if 0 < pk < 2**63 else None
        if job is None:
            raise exceptions.NotFound(gettext("Không có việc số %(n)s.") % {"n": pk})
        return Response(job_json(job=job))
