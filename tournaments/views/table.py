"""The table (chiếu) page: seats and points, the ván so far, the round's live clock or ván count,
and the ván entry for the table's scorekeeper (``tournaments.keep_score_at``): an organiser, an
event scorekeeper (event-wide or for this table), or a device that entered one of the table's
tokens (its QR link or its PIN, the PIN counted by the table's lock-out counter). The organiser
also closes the table, seats a substitute before the first ván, issues or revokes the tokens and
lifts the PIN's lock there."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, resolve_url
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from scoring import devices
from scoring.engine import N_, EngineError, get_game
from scoring.permissions import device_of, remember_device
from scoring.refusals import NotAllowed
from scoring.reports.qr import qr_svg
from scoring.respond import respond
from scoring.selectors.rules import chips
from scoring.services.people import EntryVia, acting_user
from scoring.services.quotas import VAN, charge
from tournaments.access import NO_EVENT, organised_event
from tournaments.models import Event, Registration, RegistrationStatus, ScorekeeperToken, Table
from tournaments.permissions import (
    SESSION_HOLDERS,
    SESSION_TOKENS,
    session_holder,
    session_token_tables,
    table_grant,
    visible,
)
from tournaments.selectors.pages import TableView, table_view
from tournaments.services.tables import table_close, table_substitute
from tournaments.services.tokens import (
    WrongPin,
    pin_lock,
    pin_login,
    pin_unlock,
    token_for_secret,
    token_issue,
    token_revoke,
    token_valid,
)
from tournaments.services.van import event_van_record
from tournaments.views.common import error_status, page

ORGANISER, SCOREKEEPER, TOKEN = "organiser", "scorekeeper", "token"
#: Why the PIN form answers 403 (not shown: the form itself says what to do).
NO_KEEPING = N_("Thiết bị này chưa được ghi điểm ở chiếu này: hãy nhập mã PIN của chiếu.")


def _scorekeeper_url(table: Table) -> str | None:
    """The scoring app's own page for the sitting, once it has one."""
    for name in ("scoring:sitting", "scoring:sitting_detail"):
        try:
            return reverse(name, args=[table.sitting_id])
        except NoReverseMatch:
            continue
    return None


def _named_table(request: HttpRequest, slug: str, table_id: int) -> tuple[Table | None, bool]:
    """The table the address names (one query) and whether the visitor may see its event.
    No such event, no such table in it and a private event's table look the same from outside:
    the PIN page naming nothing (:func:`_pin_page`); only a public event's missing table is 404."""
    event = Event.objects.filter(slug=slug).first()
    table = (
        Table.objects.select_related("round", "sitting__rules", "event")
        .filter(event_id=event.pk if event is not None else 0, pk=table_id)
        .first()
    )
    seen = visible(request.user, event if event is not None else NO_EVENT)
    if table is None and event is not None and event.is_public:
        raise Http404(gettext("Không có chiếu này."))
    return table, seen


def _place(slug: str, table_id: int) -> str:
    return f"{slug}/{table_id}"


def _remember(request: HttpRequest, table: Table, token: ScorekeeperToken) -> None:
    """The device now holds the table's token: a new session key (a session planted on this device
    before, e.g. by a link carrying someone's cookie, is worth nothing after), the grants kept."""
    tokens = dict(request.session.get(SESSION_TOKENS, {}))
    tokens[str(table.pk)] = token.pk
    request.session.cycle_key()
    request.session[SESSION_TOKENS] = tokens
    remember_device(request)


def _holders(table: Table) -> list[tuple[int, str]]:
    """Who may hold a table phone: the seated players of the table's canh (player id, seat name)."""
    if table.sitting_id is None:
        return []
    return list(table.sitting.seats.order_by("position").values_list("player_id", "name"))


def _name_holder(request: HttpRequest, table: Table, posted: str) -> bool:
    """Remember the seated player this device names as its holder at the table (False: not one of
    them). A ván it enters then records that player, and that player confirms none of them."""
    try:
        player = int(posted)
    except (TypeError, ValueError):
        return False
    if player not in {p for p, _name in _holders(table)}:
        return False
    holders = dict(request.session.get(SESSION_HOLDERS, {}))
    holders[str(table.pk)] = player
    request.session[SESSION_HOLDERS] = holders
    return True


def _needs_holder(request: HttpRequest, table: Table, access: str | None) -> bool:
    """A table phone in a canh that needs a second person's confirmation must name its holder
    (one of the seated players) before it enters ván."""
    if access != TOKEN or table.sitting_id is None or not table.sitting.needs_confirmation:
        return False
    return session_holder(request, table.pk) not in {p for p, _name in _holders(table)}


def _access(request: HttpRequest, event: Event, table: Table) -> str | None:
    """Who may enter ván here: an organiser (``tournaments.manage_event``), a scorekeeper of the
    event (``tournaments.keep_score_at`` the table), a device with a live token of this table, or nobody."""
    user = request.user
    if user.has_perm("tournaments.manage_event", event):
        return ORGANISER
    if user.has_perm("tournaments.keep_score_at", table):
        return SCOREKEEPER
    return TOKEN if token_valid(table, session_token_tables(request).get(table.pk)) else None


def _via(request: HttpRequest, table: Table, access: str) -> EntryVia:
    """The token a device without the right by account entered ván with, and the device."""
    grant = table_grant(request, table.pk) if access == TOKEN else None
    if grant is None:
        return EntryVia(device=device_of(request))
    return EntryVia(grant=grant.key, grant_by=grant.issued_by, device=device_of(request), player=grant.holder)


def _record(request: HttpRequest, table: Table, access: str) -> tuple[str | None, int]:
    """Record the posted ván; the Vietnamese error message if the entry is wrong, and the status."""
    data = request.POST
    winner = data.get("winner", "")
    record: dict[str, Any] = (
        {"result": "hoa"}
        if winner == "__hoa__"
        else {"winner": winner, "cuoc": [c for c in data.getlist("cuoc") if c]}
    )
    if not winner:
        return gettext("Hãy chọn người ù (hoặc Hòa)."), error_status(None, invalid=True)
    try:
        seq = int(data.get("seq", ""))
        sitting = int(data["canh"]) if data.get("canh") else None
    except ValueError:
        return gettext("Thiếu số ván; hãy tải lại trang."), error_status(None, invalid=True)
    user = acting_user(request.user)
    charge(request, VAN, sitting=table.sitting)
    try:
        event_van_record(
            table=table,
            seq=seq,
            record=record,
            idempotency_key=data.get("key") or None,
            entered_by=user,
            sitting=sitting,
            via=_via(request, table, access),
        )
    except EngineError as exc:
        return exc.message, error_status(exc)
    return None, 200


def _organiser_context(request: HttpRequest, event: Event, table: Table, view: TableView) -> dict[str, Any]:
    tokens = list(ScorekeeperToken.objects.filter(table=table, revoked_at__isnull=True).order_by("id"))
    entry = request.build_absolute_uri(reverse("tournaments:table", args=[event.slug, table.pk]))
    for token in tokens:
        token.link = f"{entry}?ma={token.secret}"  # type: ignore[attr-defined]
        token.qr = qr_svg(token.link, title=gettext("Chiếu {n}: ghi điểm").format(n=table.number))  # type: ignore[attr-defined]
    context: dict[str, Any] = {
        "tokens": tokens,
        "entry_url": entry,
        "entry_qr": qr_svg(entry, title=gettext("Chiếu {n}").format(n=table.number)),
        "pin_lock": pin_lock(table),
    }
    if view.can_substitute:
        seated = {p for _name, p in table.sitting.seats.values_list("name", "player_id")}
        busy = set(table.round.tables.values_list("sitting__seats__player_id", flat=True))
        context["out_choices"] = list(
            table.sitting.seats.order_by("position").values_list("player_id", "name")
        )
        context["in_choices"] = [
            r
            for r in Registration.objects.filter(event=event)
            .exclude(status=RegistrationStatus.WITHDRAWN)
            .select_related("player")
            .order_by("player__name")
            if r.player_id not in busy | seated
        ]
    return context


@require_http_methods(["GET", "POST"])
def table_page(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    found, seen = _named_table(request, slug, table_id)
    secret = request.GET.get("ma", "")
    if secret:  # the QR link: remember the token on this device, then drop the secret from the address
        token = token_for_secret(found, secret)
        if token is not None and found is not None:
            _remember(request, found, token)
            return redirect(request.path)
    # Who may enter ván is asked the same way where the address names no table (a stand-in that
    # nobody may keep score at), so the answer and the work to reach it are those of a private table.
    event, table = (found.event, found) if found is not None else (NO_EVENT, Table(pk=0, event=NO_EVENT))
    access = _access(request, event, table)
    if found is None or access is None:  # the PIN form, refused (403)
        return _pin_page(request, slug, table_id, found, seen=seen, refusal=NotAllowed(NO_KEEPING))
    if _needs_holder(request, table, access):
        return _pin_page(request, slug, table_id, table, seen=seen, holder_step=True)
    error, status = _record(request, table, access) if request.method == "POST" else (None, 200)
    table.refresh_from_db(fields=["sitting", "closed_at"])
    view = table_view(table)
    game = get_game(event.game)
    context = {
        "event": event,
        "table": table,
        "view": view,
        "error": error,
        "organiser": access == ORGANISER,
        # where the refusal is shown: beside the winner chips when no winner was chosen, else by the button
        "error_on_winner": bool(error) and not request.POST.get("winner"),
        "chips": chips(game, event.rules.rules()) if not game.traits.ranked else [],
        "key": uuid.uuid4().hex,
        "now": timezone.now(),
        "scorekeeper_url": _scorekeeper_url(table) if access in (ORGANISER, SCOREKEEPER) else None,
    }
    if access == ORGANISER:
        context.update(_organiser_context(request, event, table, view))
    return page(request, "tournaments/table.html", context, partial="table", status=status)


def _pin_page(
    request: HttpRequest,
    slug: str,
    table_id: int,
    table: Table | None,
    *,
    seen: bool,
    error: str | None = None,
    refusal: EngineError | None = None,
    holder_step: bool = False,
) -> HttpResponse:
    """The PIN form (200), or the form answering ``refusal`` with its status (``error``: the
    message shown above the form, if any)."""
    table_url = reverse("tournaments:table", args=[slug, table_id])
    login_url = f"{resolve_url(settings.LOGIN_URL)}?{urlencode({'next': table_url})}"
    # A private event's name, table and scoreboard stay hidden from whoever may not see the event,
    # and the page is then the same as at an address naming no table: the PIN form is all a
    # scorekeeper with a PIN needs. Who holds the phone: the seated players are named once the
    # device holds the table's token (the second step), or beside the PIN where the event is public.
    private = table is None or not seen
    context = {
        "event": None if private else table.event,
        "table": None if private else table,
        "pin_url": reverse("tournaments:table_pin", args=[slug, table_id]),
        "error": error,
        "login_url": login_url,
        "private": private,
        "holder_step": holder_step,
        "holder_url": reverse("tournaments:table_holder", args=[slug, table_id]),
        "holders": _holders(table) if table is not None and (holder_step or not private) else [],
        "holder_required": not private and table.sitting_id is not None and table.sitting.needs_confirmation,
        "holder": session_holder(request, table.pk) if table is not None else None,
    }
    devices.device_id(request)  # the device cookie the PIN's lock-out counts phones by
    if refusal is not None:
        return respond(refusal, request, "tournaments/table_pin.html", context, render=page)
    return page(request, "tournaments/table_pin.html", context)


@require_http_methods(["GET", "POST"])
def table_pin(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """Typing the table's PIN lets this device enter ván there (until the token is revoked).
    Wrong PINs are counted per phone and table: after 20 in a row that phone is locked out of the
    PIN for a while (429), the table's other phones are not (:func:`pin_login`). An address naming
    no table the visitor may see answers exactly as a private event's table does."""
    table, seen = _named_table(request, slug, table_id)
    if request.method == "GET":
        return _pin_page(request, slug, table_id, table, seen=seen)
    place = _place(slug, table_id)
    attempt = pin_login(
        table,
        request.POST.get("pin", ""),
        client=devices.client_of(request),
        known=devices.is_known(request, f"table:{place}"),
        place=place,
    )
    if attempt.refusal is not None or table is None:  # a phone locked out of the PIN (429), a wrong PIN (422)
        refusal = attempt.refusal or WrongPin(attempt.error)
        return _pin_page(request, slug, table_id, table, seen=seen, error=attempt.error, refusal=refusal)
    devices.remember_sign_in(request, f"table:{place}")
    _remember(request, table, attempt.token)
    if request.POST.get("holder"):
        _name_holder(request, table, request.POST["holder"])
    return redirect("tournaments:table", slug=table.event.slug, table_id=table.pk)


@require_POST
def table_holder(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """A device holding the table's token names who holds it: one of the seated players."""
    table, seen = _named_table(request, slug, table_id)
    if table is None or _access(request, table.event, table) != TOKEN:
        return _pin_page(request, slug, table_id, table, seen=seen, refusal=NotAllowed(NO_KEEPING))
    if not _name_holder(request, table, request.POST.get("holder", "")):
        unnamed = EngineError(N_("Hãy chọn tên mình trong số người ngồi chiếu này."))
        return _pin_page(
            request,
            slug,
            table_id,
            table,
            seen=seen,
            error=unnamed.message,
            refusal=unnamed,
            holder_step=True,
        )
    return redirect("tournaments:table", slug=table.event.slug, table_id=table.pk)


def _organised_table(request: HttpRequest, slug: str, table_id: int) -> Table:
    event = organised_event(request, slug)
    return get_object_or_404(Table.objects.select_related("round", "event"), event=event, pk=table_id)


def _act(request: HttpRequest, table: Table, action: Any) -> HttpResponse:
    """Run an organiser's action on the table; back to the table page with its outcome."""
    try:
        done = action()
    except EngineError as exc:
        messages.error(request, exc.message)
    else:
        if done:
            messages.success(request, done)
    return redirect("tournaments:table", slug=table.event.slug, table_id=table.pk)


@login_required
@require_POST
def close(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    table = _organised_table(request, slug, table_id)

    def action() -> str:
        table_close(table=table, closed_by=request.user)
        return gettext("Đã đóng chiếu {n}; các canh đã được thanh toán.").format(n=table.number)

    return _act(request, table, action)


@login_required
@require_POST
def substitute(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    table = _organised_table(request, slug, table_id)

    def action() -> str:
        try:
            out_player, reg_id = int(request.POST.get("out", "")), int(request.POST.get("in", ""))
        except ValueError:
            raise EngineError(N_("Hãy chọn người rời chiếu và người vào thay.")) from None
        reg = get_object_or_404(Registration.objects.select_related("player"), event=table.event, pk=reg_id)
        table_substitute(table=table, out_player=out_player, substitute=reg, by=request.user)
        return gettext("{name} đã vào thay.").format(name=reg.player.name)

    return _act(request, table, action)


@login_required
@require_POST
def token_new(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    table = _organised_table(request, slug, table_id)

    def action() -> str:
        token = token_issue(table=table, label=request.POST.get("label", ""), created_by=request.user)
        return gettext("Đã cấp mã ghi điểm: PIN {pin}.").format(pin=token.pin)

    return _act(request, table, action)


@login_required
@require_POST
def token_end(request: HttpRequest, slug: str, table_id: int, token_id: int) -> HttpResponse:
    table = _organised_table(request, slug, table_id)
    token = get_object_or_404(ScorekeeperToken, table=table, pk=token_id)

    def action() -> str:
        token_revoke(token=token, revoked_by=request.user)
        return gettext("Đã thu hồi mã {pin}: thiết bị dùng mã này không ghi được nữa.").format(pin=token.pin)

    return _act(request, table, action)


@login_required
@require_POST
def unlock_pin(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """The organiser lifts the lock on the table's PIN (too many wrong tries); recorded."""
    table = _organised_table(request, slug, table_id)

    def action() -> str:
        failures = pin_unlock(table=table, by=request.user)
        if not failures:
            return gettext("Mã PIN của chiếu này không bị khóa.")
        return gettext("Đã mở khóa mã PIN của chiếu {n} (đã sai {failures} lần).").format(
            n=table.number, failures=failures
        )

    return _act(request, table, action)
