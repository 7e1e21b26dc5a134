"""Two-person confirmation in the API: confirm or reject a provisional ván.

``POST /api/v1/sittings/<pk>/van/<seq>/confirm`` and ``…/reject`` (body ``{"reason": "…"}``),
each with an ``Idempotency-Key`` header like every ledger write (a repeat answers the first
answer, header ``Idempotent-Replayed: true``). The reviewer is the signed-in account (session or
token): someone who may review the sitting (``scoring.permissions.can(request, REVIEW, …)``: a
keeper of the sitting or a seated player) and did not enter the ván. Errors are
``{"error": "<Vietnamese>", "code": "<code>"}``: 401 not signed in, 403 not allowed or one's own ván, 404 no such
sitting or ván, 409 no longer provisional (confirmed, rejected or corrected meanwhile), 422 the
key was used for another request, 400 a rejection without a reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.exceptions import ParseError
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api import schemas as sc
from scoring.api.access import SIGNED_IN, LedgerView
from scoring.api.ledger import IDEMPOTENCY_KEY, _write
from scoring.api.parsers import UnsafeJSON
from scoring.engine import N_, EngineError
from scoring.models import Sitting
from scoring.permissions import REVIEW, can, review_via
from scoring.refusals import Missing, NotAllowed
from scoring.services.people import Written
from scoring.services.review import van_confirm, van_reject

__all__ = ["VanConfirmView", "VanRejectView"]


def _review(request: Request, pk: int, call: Callable[[Sitting, str], Written[Any]]) -> Response:
    """Authorise (the account was checked by :class:`LedgerView`), run a review service with the
    request's Idempotency-Key; its refusals (no such ván 404, one's own ván 403, no longer
    provisional 409) are answered by the API's handler (:mod:`scoring.errors`)."""
    sitting = Sitting.objects.select_related("club", "created_by").filter(pk=pk).first()
    if sitting is None:
        raise Missing(N_("Không có canh bài số {pk}."), pk=pk)
    if not can(request, REVIEW, sitting):
        raise NotAllowed(
            N_("Chỉ người chơi ở chiếu và thư ký ghi điểm của canh bài mới được xác nhận hay bác ván.")
        )
    return _write(request, lambda key: call(sitting, key))


class ReviewView(LedgerView):
    """An account is needed (401 otherwise, answered by :class:`LedgerView`); a table PIN's
    session is not enough: the confirmer must be known."""

    needs: ClassVar[dict[str, str]] = {"POST": SIGNED_IN}
    scoped = frozenset({"POST"})  # can(request, REVIEW, …) asks the credential's scope


class VanConfirmView(ReviewView):
    @extend_schema(
        operation_id="van_confirm",
        summary="Xác nhận một ván tạm tính (người thứ hai, không phải người ghi)",
        parameters=[IDEMPOTENCY_KEY],
        request=None,
        responses=sc.answers({200: sc.Reviewed}, 400, 401, 403, 404, 409, 422),
    )
    def post(self, request: Request, pk: int, seq: int) -> Response:
        return _review(
            request,
            pk,
            lambda sitting, key: van_confirm(
                sitting=sitting.pk,
                seq=seq,
                reviewer=request.user,
                idempotency_key=key,
                via=review_via(request, sitting),
            ),
        )


class VanRejectView(ReviewView):
    @extend_schema(
        operation_id="van_reject",
        summary="Bác một ván tạm tính (kèm lý do); người ghi sẽ sửa lại ván",
        parameters=[IDEMPOTENCY_KEY],
        request=sc.VanReject,
        responses=sc.answers({200: sc.Reviewed}, 400, 401, 403, 404, 409, 415, 422),
        examples=[
            OpenApiExample("Ghi nhầm", value={"reason": "Bình ù chứ không phải An"}, request_only=True)
        ],
    )
    def post(self, request: Request, pk: int, seq: int) -> Response:
        def call(sitting: Sitting, key: str) -> Written[Any]:
            try:
                body = request.data if isinstance(request.data, dict) else {}
            except ParseError as exc:  # the parser's own reason when it has one (scoring/api/parsers.py)
                if isinstance(exc, UnsafeJSON):  # the parser's reason, in the request's language
                    raise EngineError(str(exc.detail)) from None
                raise EngineError(N_("Nội dung yêu cầu phải là một đối tượng JSON hợp lệ.")) from None
            reason = body.get("reason", "")
            if not isinstance(reason, str) or "\x00" in reason:
                raise EngineError(N_("'reason' (lý do bác) phải là một chuỗi chữ, không có ký tự NUL."))
            return van_reject(
                sitting=sitting.pk,
                seq=seq,
                reviewer=request.user,
                reason=reason,
                idempotency_key=key,
                via=review_via(request, sitting),
            )

        return _review(request, pk, call)
