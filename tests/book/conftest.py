"""Helpers of the club book's tests: a club with its organiser, treasurer and members, and canh
opened on chosen days (time-machine), written only through the services."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from scoring.models import Club, ClubRole, ClubRoleKind, Player, Sitting
from tests.factories import new_key, record_all

MEMBERS = ("Cụ Tư", "Bác Năm", "Chú Sáu", "Anh Bảy", "Cô Tám", "Ông Chín")


def at(day: dt.date, hour: int = 19) -> dt.datetime:
    """A moment of ``day`` in the site's time zone."""
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour)), timezone.get_default_timezone())


def canh(club: Club, day: dt.date, players: Sequence[str], records: Iterable[Mapping[str, Any]] = (), *,
         mode: str = "quang", rules: str = "luat-2005", by: Any = None, hour: int = 19) -> Sitting:
    """A canh of ``club`` opened on ``day`` with ``players`` (the club's, by name), its ván recorded."""
    from scoring.services.sittings import sitting_open

    with time_machine.travel(at(day, hour), tick=False):
        sitting = sitting_open(game="to-tom-5", rules=rules, mode=mode, players=list(players), club=club,
                               created_by=by, idempotency_key=new_key(), title=f"Canh {day:%d/%m}").obj
        record_all(sitting, records)
    return sitting


@pytest.fixture
def club(django_user_model: Any) -> Club:
    from scoring.services.roles import club_open

    boss = django_user_model.objects.create_user("chu-so")
    return club_open(name="Câu lạc bộ Tổ Tôm Hà Đông", kind="clb", slug="clb-ha-dong", organiser=boss).obj


@pytest.fixture
def treasurer(django_user_model: Any, club: Club) -> Any:
    user = django_user_model.objects.create_user("thu-quy")
    ClubRole.objects.create(user=user, club=club, role=ClubRoleKind.TREASURER)
    return user


@pytest.fixture
def organiser(club: Club) -> Any:
    return ClubRole.objects.get(club=club, role=ClubRoleKind.ORGANISER).user


def member_user(django_user_model: Any, club: Club, name: str, username: str) -> Any:
    """An account linked to the club's player ``name`` (made if need be), with the player role."""
    user = django_user_model.objects.create_user(username)
    player, _ = Player.objects.get_or_create(club=club, name=name)
    player.user = user
    player.save(update_fields=["user"])
    ClubRole.objects.create(user=user, club=club, role=ClubRoleKind.PLAYER)
    return user
