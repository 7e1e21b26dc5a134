"""Clubs and villages and the roles in them: ``/lang/`` (mine, and opening a new one) and
``/lang/<slug>/`` (members and roles; organisers grant, revoke and link players to accounts).

Role changes post here (htmx swaps ``#members`` with the new list and the message; without
JavaScript the page redirects back). Every change goes through :mod:`scoring.services.roles`,
which keeps the club's last organiser and records who did what in the roles' history.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from scoring.access import denied, to_login
from scoring.engine import EngineError
from scoring.htmx import is_htmx, render_htmx
from scoring.models import Club, ClubKind, ClubRole, ClubRoleKind, Player
from scoring.respond import respond, status_of
from scoring.services.quotas import CLUBS, charge
from scoring.services.roles import club_open, player_link, role_grant, role_revoke
from scoring.views.sitting.common import new_key

__all__ = ["club_detail", "club_list", "player_link_view", "role_grant_view", "role_revoke_view"]

LIST = "scoring/club_list.html"
DETAIL = "scoring/club_detail.html"
NOT_MEMBER = gettext_lazy(
    "Bạn không thuộc làng hoặc câu lạc bộ này nên không xem được danh sách thành viên: "
    "hãy nhờ chủ sổ cấp vai trò cho bạn."
)
NOT_ORGANISER = gettext_lazy(
    "Chỉ chủ sổ của làng hoặc câu lạc bộ mới cấp, bỏ vai trò và gắn tài khoản cho người chơi."
)


def _club(slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Http404(gettext("Không có làng hoặc câu lạc bộ mang mã '{slug}'.").format(slug=slug))
    return club


def _member(user: Any, club: Club) -> bool:
    return bool(user.is_staff or ClubRole.objects.filter(user=user, club=club).exists())


def _list_context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    roles = ClubRole.objects.filter(user=request.user).select_related("club").order_by("club__name", "role")
    mine: dict[int, dict[str, Any]] = {}
    for role in roles:
        row = mine.setdefault(role.club_id, {"club": role.club, "roles": []})
        row["roles"].append(role.get_role_display())
    return {
        "nav": "clubs",
        "rows": list(mine.values()),
        "kinds": ClubKind.choices,
        "key": new_key(),
        "name": "",
        "kind": ClubKind.VILLAGE.value,
        **extra,
    }


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def club_list(request: HttpRequest) -> HttpResponse:
    """The clubs the user belongs to; a form opens a new one, whose creator is its organiser."""
    if request.method != "POST":
        return render_htmx(request, LIST, _list_context(request))
    name, kind = request.POST.get("name", ""), request.POST.get("kind", ClubKind.VILLAGE)
    charge(request=request, quota=CLUBS)
    try:
        written = club_open(
            name=name, kind=kind, organiser=request.user, idempotency_key=request.POST.get("key") or new_key()
        )
    except EngineError as exc:
        context = _list_context(request, error=exc.message, name=name, kind=kind)
        return respond(exc, request, LIST, context)
    messages.success(
        request,
        gettext("Đã lập “{name}”. Bạn là chủ sổ: hãy cấp vai trò cho thư ký và người chơi.").format(
            name=written.obj.name
        ),
    )
    return redirect("scoring:club", slug=written.obj.slug)


def _detail_context(request: HttpRequest, club: Club, **extra: Any) -> dict[str, Any]:
    roles = (
        ClubRole.objects.filter(club=club)
        .select_related("user", "granted_by")
        .order_by("role", "user__username")
    )
    organisers = sum(1 for r in roles if r.role == ClubRoleKind.ORGANISER)
    players = Player.objects.filter(club=club).select_related("user").order_by("name", "id")
    return {
        "nav": "clubs",
        "club": club,
        "roles": roles,
        "organisers": organisers,
        "players": players,
        "role_choices": ClubRoleKind.choices,
        "can_manage": request.user.has_perm("scoring.manage_club", club),
        **extra,
    }


@require_http_methods(["GET", "HEAD"])
@login_required
def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """Members and their roles (members only); the organisers' forms to change them."""
    club = _club(slug)
    if not _member(request.user, club):
        return denied(request, NOT_MEMBER)
    return render_htmx(request, DETAIL, _detail_context(request, club))


def _change(request: HttpRequest, slug: str, change: Callable[[Club], str]) -> HttpResponse:
    """Run a role change for an organiser: htmx gets ``#members`` with the message (400 when refused),
    a plain form is redirected back to the club with the message."""
    club = _club(slug)
    if not request.user.is_authenticated:
        return to_login(request, reverse("scoring:club", args=[club.slug]))
    if not request.user.has_perm("scoring.manage_club", club):
        return denied(request, NOT_ORGANISER)
    try:
        notice, error, status = change(club), None, 200
    except EngineError as exc:
        notice, error, status = None, exc.message, status_of(exc)
    if is_htmx(request):
        context = _detail_context(request, club, notice=notice, error=error)
        return render_htmx(request, DETAIL, context, partial="members", status=status)
    (messages.success if error is None else messages.error)(request, notice or error or "")
    return redirect("scoring:club", slug=club.slug)


@require_POST
def role_grant_view(request: HttpRequest, slug: str) -> HttpResponse:
    def change(club: Club) -> str:
        role, created = role_grant(
            club=club,
            username=request.POST.get("username", ""),
            role=request.POST.get("role", ""),
            granted_by=request.user,
        )
        who, what = role.user.get_username(), role.get_role_display()
        if created:
            return gettext("Đã cấp cho {who} vai trò {what}.").format(who=who, what=what)
        return gettext("{who} đã có vai trò {what} từ trước.").format(who=who, what=what)

    return _change(request, slug, change)


@require_POST
def role_revoke_view(request: HttpRequest, slug: str, role_id: int) -> HttpResponse:
    def change(club: Club) -> str:
        role = role_revoke(club=club, role_id=role_id, revoked_by=request.user)
        return gettext("Đã bỏ vai trò {what} của {who}.").format(
            what=role.get_role_display(), who=role.user.get_username()
        )

    return _change(request, slug, change)


@require_POST
def player_link_view(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    def change(club: Club) -> str:
        player = player_link(
            club=club, player_id=player_id, username=request.POST.get("username", ""), linked_by=request.user
        )
        if player.user is None:
            return gettext("Đã bỏ gắn tài khoản của {name}.").format(name=player.name)
        return gettext(
            "Đã gắn {name} với tài khoản {account}: người đó xem được các canh "
            "mình ngồi và sao kê của mình, và xác nhận được ván."
        ).format(name=player.name, account=player.user.get_username())

    return _change(request, slug, change)
