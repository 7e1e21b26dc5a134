"""Who may call the sổ điểm API: :class:`CanKeepScore` and the base view that answers refusals.

Each view says, per HTTP method, what the call needs (:attr:`LedgerView.needs`):

* ``PUBLIC``: anyone (nothing personal: clubs, rule sets);
* ``SIGNED_IN``: an account, by session or ``Authorization: Token …`` (the view narrows what it
  shows to what the account may see);
* ``VIEW`` / ``KEEP``: see / write in the sitting named by the URL's ``pk``, as decided by
  :func:`scoring.permissions.can` (which also honours a table's PIN held by the session).

Refusals are JSON ``{"error": "<message>"}`` (:mod:`scoring.api.errors`): 401 with ``WWW-Authenticate`` when no account
was given (or the token is wrong), 403 when the account may not, 404 when the sitting does not
exist, 400 for a body that is not JSON, 415 for one sent as another media type (the API reads
JSON only), 405 for a method the address does not take. A session without an account (a table
PIN) that writes must send the CSRF token too. A PUBLIC call sent with a wrong token is still
401: the token is checked before the call is looked at.

A credential with a scope (a platform token, ``Authorization: Bearer …``: one club or one event,
read or write; :func:`scoring.permissions.credential_scope`) writes nothing when it is read-only,
reaches only the sittings of its scope, and calls a SIGNED_IN operation only where the view narrows
what it does to that scope itself (:attr:`LedgerView.scoped`). A caller over its rate limit gets
429 with ``Retry-After``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.http import HttpRequest
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions
from rest_framework.authentication import CSRFCheck
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from scoring.access import REFUSALS
from scoring.api.errors import AUTHENTICATE, ApiErrors
from scoring.api.parsers import SafeJSONParser
from scoring.api.schemas import WHY, ContractSchema, Error
from scoring.models import Sitting
from scoring.permissions import (
    KEEP,
    VIEW,
    can,
    credential_scope,
    remember_roles,
    roles_read_once,
    roles_with_sitting,
)
from scoring.services import rows

__all__ = ["KEEP", "PUBLIC", "SIGNED_IN", "VIEW", "CanKeepScore", "LedgerView", "signed_in"]

PUBLIC, SIGNED_IN = "public", "signed_in"
#: What :class:`CanKeepScore` reads with the sitting (the permission itself needs only its row):
#: what a reading view shows, and the rule set a writing view settles with.
READS, WRITES = ("rules", "club", "created_by"), ("rules",)

NOT_ALLOWED = gettext_lazy("Bạn không có quyền làm việc này.")
READ_ONLY = gettext_lazy("Mã nền tảng này chỉ được đọc: hãy tạo mã có quyền ghi.")
OUT_OF_SCOPE = gettext_lazy(
    "Mã nền tảng chỉ dùng được trong làng hoặc giải đã cấp nó: việc này cần đăng nhập bằng tài khoản "
    "(phiên hoặc 'Authorization: Token <mã>')."
)


def signed_in(request: Request | HttpRequest) -> bool:
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated and user.is_active)


def _enforce_csrf(request: Request) -> None:
    """The CSRF check DRF's session authentication makes for accounts, for a session without one."""
    check = CSRFCheck(lambda _request: None)  # type: ignore[arg-type]
    check.process_request(request)  # as DRF's SessionAuthentication.enforce_csrf does
    reason = check.process_view(request, None, (), {})
    if reason:
        raise exceptions.PermissionDenied(f"CSRF Failed: {reason}")


class CanKeepScore(BasePermission):
    """The object-level rules of :mod:`scoring.permissions`, asked for every call."""

    message = NOT_ALLOWED

    def has_permission(self, request: Request, view: Any) -> bool:
        if not hasattr(view, request.method.lower()):
            return True  # a method the view does not take: DRF answers 405 next
        method = "GET" if request.method in ("HEAD", "OPTIONS") else request.method
        need = getattr(view, "needs", {}).get(method, SIGNED_IN)
        scope = credential_scope(request)
        if scope is not None:
            if request.method not in SAFE_METHODS and not scope.writes:
                self.message = READ_ONLY
                return False
            if need == SIGNED_IN and method not in getattr(view, "scoped", ()):
                self.message = OUT_OF_SCOPE
                return False
        if need == PUBLIC:
            return True
        if need == SIGNED_IN:
            return signed_in(request)
        pk = view.kwargs.get("pk")
        related = getattr(view, "loads", {}).get(method, READS if method in SAFE_METHODS else WRITES)
        # The account's roles in the sitting's club come with it (the permission reads no more).
        sitting, roles = rows.select_one_with(
            model=Sitting, where={"pk": pk}, related=related, extra=roles_with_sitting(request.user)
        )
        if sitting is None:
            if not signed_in(request):
                return False
            raise exceptions.NotFound(gettext("Không có canh bài số {pk}.").format(pk=pk))
        remember_roles(request.user, sitting.club_id, roles)
        if not can(request, need, sitting):
            self.message = REFUSALS[need]
            return False
        if not signed_in(request) and request.method not in SAFE_METHODS:
            _enforce_csrf(request)  # a table PIN's session: a browser, so the CSRF rule applies
        view.sitting = sitting
        return True


class LedgerSchema(ContractSchema):
    """The schema says what :class:`CanKeepScore` does: a PUBLIC call declares no security
    requirement at all (like ``auth=[]``); the others need the session or a token."""

    def get_auth(self) -> list[dict[str, list[str]]]:
        if getattr(self.view, "needs", {}).get(self.method.upper()) == PUBLIC:
            return []
        return [auth for auth in super().get_auth() if auth]

    def _get_response_bodies(self, direction: str = "response") -> dict[str, Any]:  # type: ignore[override]
        """Every operation may answer 429 to a platform token over its rate (DRF throttling runs
        for every call, before the operation looks at the token)."""
        bodies: dict[str, Any] = super()._get_response_bodies(direction)  # type: ignore[arg-type]
        if "429" not in bodies:
            bodies["429"] = self._get_response_for_code(
                OpenApiResponse(Error, description=WHY[429]), "429", direction=direction
            )
        return bodies


class LedgerView(ApiErrors, APIView):
    """Base of the sổ điểm's API views: :class:`CanKeepScore`, and refusals as JSON in the language
    asked for (:func:`scoring.api.errors.exception_handler`)."""

    permission_classes = [CanKeepScore]
    #: JSON only (a form or multipart body is refused with 415, as :data:`BAD_MEDIA` says).
    parser_classes = [SafeJSONParser]
    schema = LedgerSchema()
    #: What each HTTP method needs (PUBLIC, SIGNED_IN, VIEW, KEEP); unlisted methods: SIGNED_IN.
    needs: ClassVar[dict[str, str]] = {}
    #: The SIGNED_IN methods that narrow what they do to a scoped credential's club or event
    #: themselves (:func:`scoring.permissions.credential_scope`); the others refuse such a credential.
    scoped: ClassVar[frozenset[str]] = frozenset()
    #: The related rows read with :attr:`sitting`, per method, where not READS / WRITES.
    loads: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: The sitting of the URL, once :class:`CanKeepScore` let a VIEW / KEEP call through.
    sitting: Sitting

    def get_authenticate_header(self, request: Request) -> str:
        return AUTHENTICATE

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        # The account's roles in the sitting's club are read once for the permission and the quota.
        with roles_read_once():
            return super().dispatch(request, *args, **kwargs)
