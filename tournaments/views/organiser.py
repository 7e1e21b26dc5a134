"""The organiser's pages: create an event, register and check in players, seat rounds,
recompute the leaderboard (with its progress), close the event."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.engine import N_, EngineError
from scoring.htmx import is_htmx
from scoring.reports.qr import qr_svg
from tournaments.access import organised_event
from tournaments.forms import EventForm, RegistrationForm, SeatRoundForm
from tournaments.models import Event, Registration, RegistrationStatus
from tournaments.selectors.pages import board_state, rounds_with_tables
from tournaments.services import leaderboard
from tournaments.services.events import (
    check_in,
    check_in_all,
    event_create,
    event_finish,
    registration_add,
    registration_withdraw,
)
from tournaments.services.rounds import PreviousRoundOpen, round_seat
from tournaments.views.common import error_status, page
from tournaments.views.roles import roles_context


@login_required
def event_new(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None)
    error, failed = None, None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            event = event_create(
                name=data["name"],
                date=data["date"],
                lunar=data["lunar"],
                kind=data["kind"],
                game=data["game"],
                rules=data["rules"],
                mode=data["mode"],
                round_format=data["round_format"],
                van_per_round=data["van_per_round"],
                minutes_per_round=data["minutes_per_round"],
                van_per_sitting=data["van_per_sitting"] or 0,
                tie_breaks=data["tie_breaks"].split(","),
                is_public=data["is_public"],
                created_by=request.user,
                confirmation_required=data["confirmation_required"],
                count_confirmed_only=data["count_confirmed_only"],
            )
        except EngineError as exc:
            error, failed = exc.message, exc
        else:
            return redirect("tournaments:manage", slug=event.slug)
    return page(
        request,
        "tournaments/event_new.html",
        {"form": form, "error": error},
        status=error_status(failed, invalid=bool(form.errors)),
    )


def _manage_context(request: HttpRequest, event: Event, **extra: Any) -> dict[str, Any]:
    regs = list(Registration.objects.filter(event=event).select_related("player").order_by("id"))
    for (
        reg
    ) in regs:  # each player's own link, shown and copied as is (it once came out as /diem-danh//TOKEN/)
        reg.check_in_url = _check_in_url(request, event, reg)  # type: ignore[attr-defined]
    present = sum(1 for r in regs if r.status == RegistrationStatus.CHECKED_IN)
    rounds = rounds_with_tables(event)
    return {
        "event": event,
        "registrations": regs,
        "present": present,
        "waiting": sum(1 for r in regs if r.status == RegistrationStatus.REGISTERED),
        "checked_in_now": None,
        "rounds": rounds,
        "open_tables": [t for t in rounds[0].tables.all() if t.closed_at is None]
        if rounds
        else [],  # of the last round
        "state": board_state(event),
        "done": True,
        "since": "",
        "register_form": RegistrationForm(),
        "seat_form": SeatRoundForm(),
        **roles_context(event),
        **extra,
    }


@login_required
def manage(request: HttpRequest, slug: str) -> HttpResponse:
    event = organised_event(request, slug)
    return page(request, "tournaments/manage.html", _manage_context(request, event))


@login_required
@require_POST
def register(request: HttpRequest, slug: str) -> HttpResponse:
    event = organised_event(request, slug)
    form = RegistrationForm(request.POST)
    error, failed = None, None
    if form.is_valid():
        try:
            reg = registration_add(
                event=event, name=form.cleaned_data["name"], team=form.cleaned_data["team"], by=request.user
            )
            if form.cleaned_data["check_in"]:
                check_in(registration=reg, by=request.user)
        except EngineError as exc:
            error, failed = exc.message, exc
    else:
        error = gettext("Hãy nhập tên người chơi.")
    # A refusal is shown beside the name field, with the name kept to be corrected.
    context = _manage_context(
        request, event, register_error=error, register_name=request.POST.get("name", "")[:80] if error else ""
    )
    return page(
        request,
        "tournaments/manage.html",
        context,
        partial="players",
        status=error_status(failed, invalid=error is not None),
    )


def _registration_action(request: HttpRequest, slug: str, reg_id: int, action: Any) -> HttpResponse:
    event = organised_event(request, slug)
    reg = get_object_or_404(Registration.objects.select_related("player"), event=event, pk=reg_id)
    error, failed = None, None
    try:
        action(registration=reg, by=request.user)
    except EngineError as exc:
        error, failed = exc.message, exc
    return page(
        request,
        "tournaments/manage.html",
        _manage_context(request, event, players_error=error),
        partial="players",
        status=error_status(failed),
    )


@login_required
@require_POST
def check_in_player(request: HttpRequest, slug: str, reg_id: int) -> HttpResponse:
    return _registration_action(request, slug, reg_id, check_in)


@login_required
@require_POST
def check_in_everyone(request: HttpRequest, slug: str) -> HttpResponse:
    """Check in every registered player at once (after the page asked to confirm)."""
    event = organised_event(request, slug)
    error, failed, done = None, None, None
    try:
        done = check_in_all(event=event, by=request.user)
    except EngineError as exc:
        error, failed = exc.message, exc
    return page(
        request,
        "tournaments/manage.html",
        _manage_context(request, event, players_error=error, checked_in_now=done),
        partial="players",
        status=error_status(failed) if failed else 200,
    )


@login_required
@require_POST
def withdraw(request: HttpRequest, slug: str, reg_id: int) -> HttpResponse:
    return _registration_action(request, slug, reg_id, registration_withdraw)


@login_required
@require_POST
def seat_round(request: HttpRequest, slug: str) -> HttpResponse:
    event = organised_event(request, slug)
    form = SeatRoundForm(request.POST)
    error, failed = None, None
    if form.is_valid():
        try:
            round_seat(
                event=event,
                method=form.cleaned_data["method"],
                remainder=form.cleaned_data["remainder"],
                created_by=request.user,
                refuse_open=not form.cleaned_data["even_if_open"],
            )
        except PreviousRoundOpen as exc:
            # The page's own words: the checkbox below, not the API's "force".
            error, failed = (
                EngineError(
                    N_(
                        "Vòng {round} còn {count} chiếu đang chơi (chiếu {tables}): xếp chỗ vòng {next} bây giờ thì người "
                        "ở các chiếu đó ngồi hai vòng cùng lúc. Hãy đóng các chiếu đó trước, hoặc đánh dấu “vẫn xếp chỗ”."
                    ),
                    round=exc.round_number,
                    count=len(exc.tables),
                    tables=", ".join(str(t.number) for t in exc.tables),
                    next=exc.round_number + 1,
                ).message,
                exc,
            )
        except EngineError as exc:
            error, failed = exc.message, exc
    else:
        error = gettext("Hãy chọn cách xếp chỗ.")
    return page(
        request,
        "tournaments/manage.html",
        _manage_context(request, event, seat_error=error),
        partial="rounds",
        status=error_status(failed, invalid=error is not None),
    )


def _since(request: HttpRequest) -> datetime | None:
    try:
        return datetime.fromisoformat(request.GET.get("since", ""))
    except ValueError:
        return None


@login_required
def recompute(request: HttpRequest, slug: str) -> HttpResponse:
    """POST: queue a full recompute (the organiser's button). GET: its progress, polled by htmx."""
    event = organised_event(request, slug)
    since = _since(request)
    if request.method == "POST":
        since = timezone.now()
        leaderboard.queue_recompute(event_id=event.pk, force=True)
    event = Event.objects.select_related("leaderboard").get(pk=event.pk)
    state = board_state(event)
    board = state.board
    done = (
        since is None
        or (board.computed_at is not None and board.computed_at >= since)
        or (board.failed_at is not None and board.failed_at >= since)
    )  # failed: the panel says why
    context = {"event": event, "state": state, "since": since.isoformat() if since else "", "done": done}
    if not is_htmx(request) and request.method == "POST":
        return redirect("tournaments:manage", slug=event.slug)
    return page(
        request,
        "tournaments/manage.html",
        {**_manage_context(request, event), **context},
        partial="recompute",
    )


@login_required
@require_POST
def finish(request: HttpRequest, slug: str) -> HttpResponse:
    event_finish(event=organised_event(request, slug))
    return redirect("tournaments:manage", slug=slug)


def _check_in_url(request: HttpRequest, event: Event, reg: Registration) -> str:
    return request.build_absolute_uri(reverse("tournaments:check_in_link", args=[event.slug, reg.token]))


@login_required
def check_in_qr(request: HttpRequest, slug: str, reg_id: int) -> HttpResponse:
    """The QR code of a player's check-in link, as an inline SVG fragment (the registration list
    loads it when the organiser opens the player's link, so the list itself stays light)."""
    event = organised_event(request, slug)
    reg = get_object_or_404(Registration.objects.select_related("player"), event=event, pk=reg_id)
    svg = qr_svg(
        _check_in_url(request, event, reg), title=gettext("Điểm danh: {name}").format(name=reg.player.name)
    )
    return HttpResponse(format_html('<div class="qr-code" data-testid="qr">{}</div>', svg))


@login_required
def check_in_cards(request: HttpRequest, slug: str) -> HttpResponse:
    """Printable check-in cards (thẻ điểm danh): each player's name, village and QR code, to hand
    out before the festival; ``?reg=ID`` prints one card."""
    event = organised_event(request, slug)
    regs = (
        Registration.objects.filter(event=event)
        .exclude(status=RegistrationStatus.WITHDRAWN)
        .select_related("player")
        .order_by("team", "player__name")
    )
    if request.GET.get("reg", "").isdigit():
        regs = regs.filter(pk=int(request.GET["reg"]))
    cards = []
    for reg in regs:
        url = _check_in_url(request, event, reg)
        cards.append(
            {
                "reg": reg,
                "url": url,
                "qr": qr_svg(url, scale=5, title=gettext("Điểm danh: {name}").format(name=reg.player.name)),
            }
        )
    return page(request, "tournaments/check_in_cards.html", {"event": event, "cards": cards})
