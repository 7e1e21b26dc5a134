"""The list of sittings and the form that opens one (game, rule set, mode, players in seat order)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Count, Max, Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods

from scoring.engine import GAMES, N_, EngineError, Game, get_game
from scoring.htmx import render_htmx
from scoring.models import Club, Mode, Player, Seat
from scoring.permissions import visible_sittings
from scoring.refusals import NotAllowed
from scoring.respond import respond
from scoring.selectors.rules import DEFAULT_PRESET, applied_rules_names, rules_choices
from scoring.services.idempotency import IdempotencyMismatch
from scoring.services.rules import resolve_rules
from scoring.services.sittings import sitting_open
from scoring.views.sitting.common import new_key

NEW = "scoring/sitting_new.html"
RECENT = 50
KNOWN_PLAYERS = 300


@require_http_methods(["GET", "HEAD"])
@login_required
def sitting_list(request: HttpRequest) -> HttpResponse:
    """Recent sittings the user may see: game, mode, players, number of ván and last activity."""
    recent = (
        visible_sittings(request.user)
        .select_related("rules", "club")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.order_by("position")))
        .annotate(last_van=Max("van__created_at"), van_count=Count("van", filter=Q(van__is_current=True)))
        .order_by("-created_at", "-id")[:RECENT]
    )
    recent = list(recent)
    # the village's name where its values apply, not its base preset's
    rule_names = applied_rules_names({s.rules_id: s.rules for s in recent}.values())
    rows = []
    for s in recent:
        moments = [m for m in (s.created_at, s.last_van, s.ended_at) if m is not None]
        rows.append(
            {
                "sitting": s,
                "game": get_game(s.game).name_vi,
                "rules": rule_names[s.rules_id],
                "mode": s.get_mode_display(),
                "players": [seat.name for seat in s.seats.all()],
                "van_count": s.van_count,
                "last": max(moments),
            }
        )
    return render_htmx(request, "scoring/sitting_list.html", {"nav": "sitting", "rows": rows})


def _gom_amount(rules_slug: str, game: Game) -> int | None:
    try:
        return resolve_rules(rules_slug).gom_amount(game.players_max)
    except EngineError:
        return None


def openable_clubs(user: Any) -> list[Club]:
    """The clubs ``user`` may open a sitting in (``scoring.open_sitting``: its organisers and
    scorekeepers; staff: every club)."""
    candidates = Club.objects.all() if user.is_staff else Club.objects.filter(roles__user=user).distinct()
    return [club for club in candidates.order_by("name") if user.has_perm("scoring.open_sitting", club)]


def _known_players(user: Any, club: Club | None) -> list[str]:
    """Names to suggest: the club's players, or (no club) the guests of sittings the user sees."""
    if club is not None:
        players = Player.objects.filter(club=club)
    else:
        players = Player.objects.filter(club__isnull=True, seats__sitting__in=visible_sittings(user))
    return list(players.order_by("name").values_list("name", flat=True).distinct()[:KNOWN_PLAYERS])


def _form_state(data: Any, user: Any) -> dict[str, Any]:
    """The start form as typed (kept whole when an error is shown), with the game's choices."""
    slug = data.get("game") or "to-tom-5"
    game = get_game(slug) if slug in GAMES else get_game("to-tom-5")
    choices = rules_choices(game)
    rules_slug = data.get("rules") or DEFAULT_PRESET[game.family]
    if rules_slug not in {c.slug for c in choices}:
        rules_slug = DEFAULT_PRESET[game.family]
    modes = [Mode.QUANG, Mode.GOM] if game.traits.has_gom else [Mode.QUANG]
    mode = data.get("mode") if data.get("mode") in {m.value for m in modes} else Mode.QUANG.value
    typed = [p.strip() for p in data.getlist("player")][: game.players_max]
    players = typed + [""] * (game.players_max - len(typed))
    clubs = openable_clubs(user)
    club_slug = data.get("club") or ""
    club = next((c for c in clubs if c.slug == club_slug), None)
    return {
        "nav": "sitting",
        "games": list(GAMES.values()),
        "game": game,
        "rules_choices": choices,
        "rules_slug": rules_slug,
        "modes": [(m.value, m.label) for m in modes],
        "mode": mode,
        "gom": _gom_amount(rules_slug, game),
        "players": players,
        "title": (data.get("title") or "").strip(),
        "clubs": clubs,
        "club": club,
        "known": _known_players(user, club),
        "club_refused": bool(club_slug) and club is None,
        "key": data.get("key") or new_key(),
    }


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def sitting_new(request: HttpRequest) -> HttpResponse:
    """Open a sitting (signed in: the user is its opener); errors are shown next to the form with
    everything typed kept. A club is offered only to its organisers and scorekeepers."""
    if request.method != "POST":
        return render_htmx(request, NEW, _form_state(request.GET, request.user), partial="new-form")
    state = _form_state(request.POST, request.user)
    if state["club_refused"]:
        refused = NotAllowed(
            N_(
                "Bạn không mở được canh bài trong làng hoặc câu lạc bộ này: chỉ chủ sổ và thư ký "
                "ghi điểm của nơi đó mới mở được. Hãy chọn nơi khác hoặc để trống."
            )
        )
        state["error"] = refused.message
        return respond(refused, request, NEW, state, partial="new-form")
    try:
        written = sitting_open(
            game=state["game"].slug.value,
            rules=state["rules_slug"],
            mode=state["mode"],
            players=[p for p in state["players"] if p],
            title=state["title"],
            club=state["club"],
            created_by=request.user,
            idempotency_key=state["key"],
        )
    except EngineError as exc:
        state["error"] = exc.message
        if isinstance(exc, IdempotencyMismatch):  # the key was used: the form gets a fresh one
            state["key"] = new_key()
        return respond(exc, request, NEW, state, partial="new-form")
    return redirect("scoring:sitting", pk=written.obj.pk)
