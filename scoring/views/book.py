"""The club book's pages: ``/lang/<slug>/so/`` (every member's running points in a period, the
season's chart, the ratings), a member's statement (page, PDF, CSV, XLSX), closing a period (a
confirmation page first) and undoing a close, and the managers' "rebuild the ratings" button.

Who sees what (:mod:`scoring.permissions`): the club's organisers and treasurers (thủ quỹ) the whole
book and every statement, and they close periods; a member with an account (a player linked to it)
their own rows and their own statement; organisers rebuild the ratings. Anyone else signed in gets
a Vietnamese 403; a visitor signs in first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.access import SIGN_IN_FIRST, NotAllowed, NotSignedIn, denied, to_login
from scoring.engine import EngineError
from scoring.htmx import render_htmx
from scoring.lunar import to_lunar
from scoring.models import Club, ClubRatingBoard, PeriodClose
from scoring.periods import (
    SEASONS,
    Period,
    PeriodError,
    lunar_day_label,
    lunar_year,
    month_choices,
    period_from,
    season,
)
from scoring.permissions import book_member, book_players
from scoring.reports.book import club_statement_sheet
from scoring.reports.pdf import pdf_response
from scoring.reports.qr import qr_svg
from scoring.reports.spark import band_sparkline, sparkline
from scoring.reports.tabular import sheet_response
from scoring.respond import respond, status_of
from scoring.selectors.book import Book, book, season_series
from scoring.selectors.statement import member_player, statement
from scoring.services.closing import fingerprint, period_close, period_close_reverse
from scoring.services.ratings import club_ratings, rebuild_ratings
from scoring.text import vi_slugify
from scoring.views.sitting.common import new_key

__all__ = [
    "book_chart",
    "book_page",
    "close_page",
    "close_reverse",
    "ratings_rebuild",
    "statement_export",
    "statement_page",
]

BOOK = "scoring/book/book.html"
STATEMENT = "scoring/book/statement.html"
CLOSE = "scoring/book/close.html"
#: Members drawn on the season's chart by default (the leaders): more lines cannot be read.
CHART_MEMBERS = 8


@dataclass(frozen=True)
class Access:
    """What the request may see of the club's book: all of it, or its own players' rows."""

    whole: bool
    own: tuple[int, ...]


def _club(slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Http404(_("Không có làng hoặc câu lạc bộ mang mã '%(slug)s'.") % {"slug": slug})
    return club


def _access(request: HttpRequest, club: Club) -> Access | None:
    user = request.user
    if not book_member(user, club):
        return None
    return Access(user.has_perm("scoring.keep_club_book", club), tuple(book_players(user, club)))


def _not_member() -> str:
    return _(
        "Bạn không xem được sổ của làng hoặc câu lạc bộ này: chỉ chủ sổ, thủ quỹ và thành viên có tài khoản "
        "gắn với người chơi của làng mới xem được (mỗi người xem phần của mình)."
    )


def _not_keeper() -> str:
    return _("Chỉ chủ sổ và thủ quỹ của làng hoặc câu lạc bộ mới chốt sổ và đảo chốt sổ được.")


def query(period: Period) -> str:
    """The period in a URL's query string."""
    params = (
        {"ky": period.key} if period.key else {"from": period.start.isoformat(), "to": period.end.isoformat()}
    )
    return urlencode(params)


def _chooser(period: Period) -> dict[str, Any]:
    """The periods offered: the lunar years around, the months and seasons of the period's year."""
    year = to_lunar(period.start).year
    now = to_lunar(timezone.localdate()).year
    years = [lunar_year(y) for y in sorted({now - 2, now - 1, now, year})]
    return {
        "years": years,
        "months": month_choices(year),
        "seasons": [season(year, s) for s in SEASONS],
        "lunar_start": lunar_day_label(period.start),
        "lunar_end": lunar_day_label(period.end),
    }


def _rows(the_book: Book, slug: str, q: str) -> list[dict[str, Any]]:
    rows = []
    for m in the_book.members:
        values = [0, *[v for _c, _d, v in m.series]]
        label = _("Điểm của %(name)s sau từng canh: %(values)s") % {
            "name": m.name,
            "values": ", ".join(str(v) for v in values[1:]),
        }
        rows.append(
            {
                "m": m,
                "spark": sparkline(values, label=label),
                "statement": reverse("scoring:club_statement", args=[slug, m.player_id]) + "?" + q,
            }
        )
    return rows


def _ratings(club: Club) -> list[dict[str, Any]]:
    out = []
    for rank, r in enumerate(club_ratings(club), start=1):
        history = r.history or []
        label = _("Trình độ của %(name)s qua các canh (μ và dải ±2σ)") % {"name": r.player.name}
        out.append(
            {
                "rank": rank,
                "r": r,
                "ordinal": round(r.ordinal, 1),
                "mu": round(r.mu, 1),
                "sigma": round(r.sigma, 1),
                "spark": band_sparkline([h[2] for h in history], [h[3] for h in history], label=label),
            }
        )
    return out


def _book_context(
    request: HttpRequest, club: Club, access: Access, period: Period, **extra: Any
) -> dict[str, Any]:
    whole = book(club, period)
    the_book = whole if access.whole else whole.only(access.own)
    q = query(period)
    pots = sum(c.pool + c.ga_trong for c in whole.open_canh)
    return {
        "nav": "clubs",
        "club": club,
        "period": period,
        "book": the_book,
        "whole": access.whole,
        "q": q,
        "rows": _rows(the_book, club.slug, q),
        "ratings": _ratings(club),
        "pots": pots,
        "board": ClubRatingBoard.objects.filter(club=club).first(),
        "can_manage": request.user.has_perm("scoring.manage_club", club),
        "chart_url": reverse("scoring:club_book_chart", args=[club.slug]) + "?" + q,
        "close_url": reverse("scoring:club_close", args=[club.slug]) + "?" + q,
        "key": new_key(),
        **_chooser(period),
        **extra,
    }


@require_http_methods(["GET", "HEAD"])
@login_required
def book_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's book for a period (``?ky=`` or ``?from=&to=``; this lunar year by default)."""
    club = _club(slug)
    access = _access(request, club)
    if access is None:
        return denied(request, _not_member())
    try:
        period, error, status = period_from(request.GET), None, 200
    except PeriodError as exc:
        period, error, status = period_from({}), exc.message, status_of(exc)
    context = _book_context(request, club, access, period, error=error)
    return render_htmx(request, BOOK, context, partial="book", status=status)


@require_GET
def book_chart(request: HttpRequest, slug: str) -> HttpResponse:
    """The season's chart: the chosen members' (``?nguoi=1,2``; the leaders by default) running
    points after each day with a canh. A member who sees only their own rows gets only theirs."""
    club = _club(slug)
    try:
        if not request.user.is_authenticated:
            raise NotSignedIn(SIGN_IN_FIRST)
        access = _access(request, club)
        if access is None:
            raise NotAllowed(_not_member())
        period = period_from(request.GET)
    except EngineError as exc:  # not signed in (401), not a member (403), a period not understood
        return respond(exc, request)
    the_book = book(club, period, with_ratings=False, with_closes=False)
    chosen = [int(x) for x in request.GET.get("nguoi", "").split(",") if x.strip().isdigit()][:24]
    if not access.whole:  # only their own lines, whoever else they ask for
        chosen = [p for p in chosen if p in access.own] or list(access.own)
    elif not chosen:
        chosen = [m.player_id for m in the_book.members[:CHART_MEMBERS]]
    return JsonResponse(season_series(the_book, chosen), json_dumps_params={"ensure_ascii": False})


# -- a member's statement ------------------------------------------------------------------------


def _statement_for(
    request: HttpRequest, slug: str, player_id: int
) -> tuple[Club, Any, Period] | HttpResponse:
    club = _club(slug)
    access = _access(request, club)
    if access is None or not (access.whole or player_id in access.own):
        return denied(
            request, _("Bạn chỉ xem được sao kê của chính mình; chủ sổ và thủ quỹ xem được của mọi người.")
        )
    player = member_player(club, player_id)
    try:
        period = period_from(request.GET)
    except PeriodError:
        period = period_from({})
    return club, player, period


@require_http_methods(["GET", "HEAD"])
@login_required
def statement_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    found = _statement_for(request, slug, player_id)
    if isinstance(found, HttpResponse):
        return found
    club, player, period = found
    st = statement(club, period, player)
    q = query(period)
    base = reverse("scoring:club_statement", args=[slug, player_id])
    downloads = [
        (fmt.upper(), reverse(f"scoring:club_statement_{fmt}", args=[slug, player_id]) + "?" + q)
        for fmt in ("pdf", "csv", "xlsx")
    ]
    return render_htmx(
        request,
        STATEMENT,
        {
            "nav": "clubs",
            "club": club,
            "st": st,
            "period": period,
            "q": q,
            "base": base,
            "downloads": downloads,
            "book_url": reverse("scoring:club_book", args=[slug]) + "?" + q,
            **_chooser(period),
        },
    )


@require_GET
@login_required
def statement_export(request: HttpRequest, slug: str, player_id: int, fmt: str) -> HttpResponse:
    """The statement as PDF (with the club's name and a QR code back to the page), CSV or XLSX."""
    found = _statement_for(request, slug, player_id)
    if isinstance(found, HttpResponse):
        return found
    club, player, period = found
    st = statement(club, period, player)
    filename = (
        f"{club.slug}-sao-ke-{vi_slugify(player.name) or player.pk}-{period.start:%Y%m%d}-{period.end:%Y%m%d}"
    )
    if fmt == "pdf":
        url = request.build_absolute_uri(
            reverse("scoring:club_statement", args=[slug, player_id]) + "?" + query(period)
        )
        context = {
            "club": club,
            "st": st,
            "period": period,
            "qr": qr_svg(url, scale=3, title=url, border=4),
            "url": url,
            "printed_at": timezone.localtime(st.printed_at).strftime("%d/%m/%Y %H:%M"),
            "lunar_start": lunar_day_label(period.start),
            "lunar_end": lunar_day_label(period.end),
        }
        return pdf_response("reports/club_statement.html", context, request, filename, inline=False)
    return sheet_response(club_statement_sheet(st), fmt, filename)


# -- closing a period ------------------------------------------------------------------------------


def _keeper(request: HttpRequest, club: Club) -> HttpResponse | None:
    if not request.user.is_authenticated:
        return to_login(request, reverse("scoring:club_book", args=[club.slug]))
    if not request.user.has_perm("scoring.keep_club_book", club):
        return denied(request, _not_keeper())
    return None


def _close_context(request: HttpRequest, club: Club, period: Period, **extra: Any) -> dict[str, Any]:
    the_book = book(club, period, with_ratings=False)
    touched = [c for c in the_book.canh if not c.ended or any(c.open.values())]
    return {
        "nav": "clubs",
        "club": club,
        "period": period,
        "book": the_book,
        "plan": the_book.plan,
        "touched": touched,
        "running": the_book.open_canh,
        "fingerprint": fingerprint(the_book),
        "key": new_key(),
        "q": query(period),
        "book_url": reverse("scoring:club_book", args=[club.slug]) + "?" + query(period),
        "balances": [m for m in the_book.members if m.open],
        **extra,
    }


@require_http_methods(["GET", "HEAD", "POST"])
def close_page(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: what closing the period would do (the transfers, the canh it ends) and a confirm button;
    POST: the close, if the balances are still those confirmed (else the new plan, 409)."""
    club = _club(slug)
    refused = _keeper(request, club)
    if refused is not None:
        return refused
    data = request.POST if request.method == "POST" else request.GET
    try:
        period = period_from(data)
    except PeriodError as exc:
        return respond(exc, request, CLOSE, _close_context(request, club, period_from({}), error=exc.message))
    if request.method != "POST":
        return render_htmx(request, CLOSE, _close_context(request, club, period))
    try:
        written = period_close(
            club=club,
            period=period,
            closed_by=request.user,
            expected=request.POST.get("fingerprint") or None,
            idempotency_key=request.POST.get("key") or new_key(),
        )
    except EngineError as exc:  # the balances moved since the plan (409), a reused key (422)…
        return respond(exc, request, CLOSE, _close_context(request, club, period, error=exc.message))
    close = written.obj
    messages.success(
        request,
        _("Đã chốt sổ %(label)s: %(n)d khoản chuyển, mọi số dư của kỳ về 0.")
        % {"label": close.label, "n": len(close.transfers)},
    )
    return redirect(reverse("scoring:club_book", args=[slug]) + "?" + query(period))


@require_POST
def close_reverse(request: HttpRequest, slug: str, close_id: int) -> HttpResponse:
    """Undo a close by a correction (reversing transactions), with a reason."""
    club = _club(slug)
    refused = _keeper(request, club)
    if refused is not None:
        return refused
    close = PeriodClose.objects.filter(pk=close_id, club=club).first()
    if close is None:
        raise Http404(_("Không có lần chốt sổ này."))
    back = (
        reverse("scoring:club_book", args=[slug])
        + "?"
        + urlencode({"from": close.date_from.isoformat(), "to": close.date_to.isoformat()})
    )
    try:
        period_close_reverse(
            close=close,
            reason=request.POST.get("reason", ""),
            reversed_by=request.user,
            idempotency_key=request.POST.get("key") or new_key(),
        )
    except EngineError as exc:
        messages.error(request, exc.message)
        return redirect(back)
    messages.success(
        request,
        _("Đã đảo chốt sổ %(label)s: các số dư của kỳ mở lại, các canh được chốt mở lại.")
        % {"label": close.label},
    )
    return redirect(back)


@require_POST
def ratings_rebuild(request: HttpRequest, slug: str) -> HttpResponse:
    """The managers' button: rebuild every rating of the club from its ván, now."""
    club = _club(slug)
    if not request.user.is_authenticated:
        return to_login(request, reverse("scoring:club_book", args=[club.slug]))
    if not request.user.has_perm("scoring.manage_club", club):
        return denied(request, _("Chỉ chủ sổ của làng hoặc câu lạc bộ mới tính lại trình độ được."))
    done = rebuild_ratings(club_id=club.pk, force=True)
    messages.success(
        request,
        _("Đã tính lại trình độ từ %(van)d ván: %(players)d người.")
        % {"van": done.van, "players": done.players},
    )
    return redirect(reverse("scoring:club_book", args=[slug]) + "#trinh-do")
