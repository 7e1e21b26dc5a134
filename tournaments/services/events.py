"""Events, registrations and check-in."""

from __future__ import annotations

from datetime import date as Date
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.engine import N_, EngineError, RuleSet, get_game, initial_state
from scoring.models import Player
from scoring.names import refuse_look_alike
from scoring.services.people import User, acting_user, player_create
from scoring.services.rules import resolve_rules, snapshot_for
from scoring.services.sittings import sittings_make_final
from scoring.services.van import ResultsFinal
from scoring.text import vi_slugify
from tournaments.lunar import lunar_label
from tournaments.models import (
    Event,
    EventKind,
    Leaderboard,
    Registration,
    RegistrationStatus,
    RoundFormat,
    TableSitting,
    TieBreak,
    default_tie_breaks,
)
from tournaments.services.leaderboard import ledger_changed
from tournaments.signals import event_finished, send_on_commit

__all__ = [
    "EventFinished",
    "check_in",
    "check_in_all",
    "check_in_by_token",
    "ensure_running",
    "event_create",
    "event_finish",
    "registration_add",
    "registration_withdraw",
]


class EventFinished(ResultsFinal):
    """The event is finished, its results final: nothing that changes them is accepted (HTTP 409)."""

    code = "event_finished"


def ensure_running(*, event: Event | int) -> None:
    """Refuse a change to a finished event (read afresh: an event object may be older than its
    finish). Ván are refused by the ledger itself, under the sitting's lock (``Sitting.final_at``)."""
    pk = event.pk if isinstance(event, Event) else event
    if Event.objects.filter(pk=pk, finished_at__isnull=False).exists():
        raise EventFinished(
            N_("Giải đã kết thúc, kết quả đã chốt chính thức: không ghi hay thay đổi được gì nữa.")
        )


def _unique_slug(base: str) -> str:
    base = (vi_slugify(base) or "giai")[:70]
    slug, n = base, 1
    while Event.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _tie_breaks(value: list[str] | None) -> list[str]:
    if not value:
        return default_tie_breaks()
    unknown = [v for v in value if v not in TieBreak.values]
    if unknown:
        raise EngineError(N_("Tiêu chí xếp hạng không hợp lệ: {unknown}."), unknown=list(unknown))
    return list(dict.fromkeys(value))


def _check_game(game: str, rules: RuleSet, mode: str) -> None:
    spec = get_game(game)
    names = [f"Người {i}" for i in range(1, spec.players_max + 1)]
    initial_state(names, game, rules, mode)  # the engine refuses a rule set of another game


@transaction.atomic
def event_create(
    *,
    name: str,
    date: Date,
    game: str,
    rules: Any,
    mode: str = "quang",
    kind: str = EventKind.FESTIVAL,
    lunar: str = "",
    is_public: bool = True,
    round_format: str = RoundFormat.VAN,
    van_per_round: int = 8,
    minutes_per_round: int = 45,
    van_per_sitting: int = 0,
    tie_breaks: list[str] | None = None,
    slug: str = "",
    created_by: User | None = None,
    confirmation_required: bool = False,
    count_confirmed_only: bool = False,
) -> Event:
    """Create an event with its (empty) stored leaderboard; the creator becomes an organiser.

    ``rules``: a preset or saved village rule set's slug, a spec, or a RuleSet (snapshotted, so a
    later change of the village's rules never rewrites the event). ``lunar`` empty: computed.
    ``round_format``: a round lasts ``van_per_round`` ván or ``minutes_per_round`` minutes;
    ``van_per_sitting`` > 0 splits a table's round into canh of that many ván.
    ``confirmation_required``: every ván stays provisional until a second person confirms it;
    ``count_confirmed_only`` (needs it): the standings count confirmed ván only.
    """
    name = (name or "").strip()
    if not name:
        raise EngineError(N_("Hãy đặt tên cho giải."))
    if kind not in EventKind.values or round_format not in RoundFormat.values:
        raise EngineError(N_("Loại giải hoặc thể thức vòng không hợp lệ."))
    if van_per_round < 1 or minutes_per_round < 1:
        raise EngineError(N_("Số ván và số phút mỗi vòng phải lớn hơn 0."))
    if van_per_sitting < 0:
        raise EngineError(N_("Số ván mỗi canh không được âm (0: cả vòng một canh)."))
    if count_confirmed_only and not confirmation_required:
        raise EngineError(N_("Chỉ tính ván đã xác nhận khi giải bật xác nhận ván bởi người thứ hai."))
    the_rules = rules if isinstance(rules, RuleSet) else resolve_rules(rules)
    _check_game(game, the_rules, mode)
    event = Event.objects.create(
        name=name[:160],
        slug=_unique_slug(slug or name),
        kind=kind,
        date=date,
        lunar_label=(lunar or "").strip()[:60] or lunar_label(date),
        game=game,
        rules=snapshot_for(rules=the_rules),
        mode=mode,
        is_public=is_public,
        round_format=round_format,
        van_per_round=van_per_round,
        minutes_per_round=minutes_per_round,
        van_per_sitting=van_per_sitting,
        tie_breaks=_tie_breaks(tie_breaks),
        created_by=created_by,
        confirmation_required=confirmation_required,
        count_confirmed_only=count_confirmed_only,
    )
    if created_by is not None:
        event.organisers.add(created_by)
    Leaderboard.objects.create(event=event)
    return event


@transaction.atomic
def event_finish(*, event: Event) -> Event:
    """Mark the results final: the scoreboard stops saying "tạm tính", and every canh of the event
    is made final in the ledger (``Sitting.final_at``), so no page, API or console writes, corrects
    or confirms a ván there any more. The canh are locked first, then the event, in the order a ván
    takes them: a ván being written finishes before, none is written after."""
    sittings_make_final(
        sittings=list(TableSitting.objects.filter(event=event).values_list("sitting_id", flat=True))
    )
    if Event.objects.filter(pk=event.pk, finished_at__isnull=True).update(finished_at=timezone.now()):
        send_on_commit(event_finished, event_id=event.pk)
    event.refresh_from_db(fields=["finished_at"])
    return event


@transaction.atomic
def registration_add(
    *, event: Event, name: str = "", player: Player | None = None, team: str = "", by: User | None = None
) -> Registration:
    """Register a player (an existing one, or a new one by name) with their village/hamlet/team.

    Names are unique within an event: a table's seats are named after the players.
    """
    ensure_running(event=event)
    if player is None:
        player = player_create(name=name).obj
    team = (team or "").strip()[:120] or (player.club.name if player.club_id else "")
    # One name as people read it (scoring.names.name_key: "Bình" = "bình", accents count).
    clash = Registration.objects.filter(event=event, player__name_key=player.name_key).exclude(player=player)
    # A name that only looks like a registered one (letters of another script) names that player.
    refuse_look_alike(player.name, clash.values_list("player__name", flat=True)[:20])
    if clash.exists():
        raise EngineError(
            N_("Giải đã có người tên '{name}'; hãy thêm tên làng hoặc giáp để phân biệt, ví dụ '{example}'."),
            name=player.name,
            example=f"{player.name} ({team or 'Đông'})",
        )
    earlier = Registration.objects.filter(event=event, player=player).first()
    if earlier is not None:
        if earlier.status != RegistrationStatus.WITHDRAWN:
            raise EngineError(N_("'{name}' đã đăng ký giải này rồi."), name=player.name)
        (
            earlier.status,
            earlier.checked_in_at,
            earlier.checked_in_by,
            earlier.checked_in_own_link,
            earlier.team,
        ) = (RegistrationStatus.REGISTERED, None, None, False, team)
        earlier.registered_by = acting_user(user=by)
        earlier.save(
            update_fields=[
                "status",
                "checked_in_at",
                "checked_in_by",
                "checked_in_own_link",
                "team",
                "registered_by",
            ]
        )
        ledger_changed(event_id=event.pk, registrations=[earlier.pk])
        return earlier
    try:
        with transaction.atomic():
            reg = Registration.objects.create(
                event=event, player=player, team=team, registered_by=acting_user(user=by)
            )
    except IntegrityError:
        raise EngineError(N_("'{name}' đã đăng ký giải này rồi."), name=player.name) from None
    ledger_changed(event_id=event.pk, registrations=[reg.pk])  # the standings list every registered player
    return reg


def _check_in(reg: Registration, by: User | None = None, *, own_link: bool = False) -> Registration:
    ensure_running(event=reg.event_id)
    if reg.status == RegistrationStatus.WITHDRAWN:
        raise EngineError(
            N_("{name} đã rút khỏi giải; hãy đăng ký lại nếu muốn chơi tiếp."), name=reg.player.name
        )
    Registration.objects.filter(pk=reg.pk).exclude(status=RegistrationStatus.CHECKED_IN).update(
        status=RegistrationStatus.CHECKED_IN,
        checked_in_at=timezone.now(),
        checked_in_by=acting_user(user=by),
        checked_in_own_link=own_link,
    )
    reg.refresh_from_db(fields=["status", "checked_in_at", "checked_in_by", "checked_in_own_link"])
    return reg


def check_in(*, registration: Registration, by: User | None = None) -> Registration:
    """Check a player in (by an organiser: ``by``). Checking in twice changes nothing."""
    return _check_in(registration, by)


@transaction.atomic
def check_in_all(*, event: Event, by: User | None = None) -> int:
    """Check in every player registered and not yet checked in (a list imported at once is
    checked in at once, not one tap each); withdrawn players stay out. Returns how many."""
    ensure_running(event=event)
    return Registration.objects.filter(event=event, status=RegistrationStatus.REGISTERED).update(
        status=RegistrationStatus.CHECKED_IN,
        checked_in_at=timezone.now(),
        checked_in_by=acting_user(user=by),
        checked_in_own_link=False,
    )


def check_in_by_token(*, token: str) -> Registration:
    """Check in through the player's personal link (the QR code at the gate)."""
    reg = Registration.objects.select_related("player", "event").filter(token=token).first()
    if reg is None:
        raise EngineError(N_("Mã điểm danh không đúng hoặc đã hết hạn; hãy hỏi ban tổ chức."))
    return _check_in(reg, own_link=True)


@transaction.atomic
def registration_withdraw(*, registration: Registration, by: User | None = None) -> Registration:
    """Withdraw a player: no longer seated in later rounds (points already won stay). Withdrawing
    twice changes nothing (the first time and person are kept)."""
    ensure_running(event=registration.event_id)
    Registration.objects.filter(pk=registration.pk).exclude(status=RegistrationStatus.WITHDRAWN).update(
        status=RegistrationStatus.WITHDRAWN, withdrawn_at=timezone.now(), withdrawn_by=acting_user(user=by)
    )
    ledger_changed(event_id=registration.event_id, registrations=[registration.pk])  # the standings mark them
    registration.refresh_from_db(fields=["status", "withdrawn_at", "withdrawn_by"])
    return registration
