"""Two-person confirmation by one person: through a PIN, the PIN's issuer, the same device or grant.

Finding 4 of issue 20: the organiser issued a PIN, recorded ván 2 from that PIN's session (stored
with ``entered_by`` NULL) and confirmed it with their own account (200). A ván now records the grant
it was entered with (``entered_grant``), the account that issued it (``entered_grant_by``) and the
device (``entered_device``); none of them may confirm or reject it, by the pages or the API, and the
database refuses the issuer as confirmer too. A second person still can (the control).
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.test import Client

from scoring.models import Van, VanStatus
from tests.reliability.probe_setup import PASSWORD, Small, fast_hashes, small_event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_hashes")]
__all__ = ["fast_hashes"]


def _record(client: Client, small: Small, seq: int) -> Any:
    winner = small.seat_names()[seq % 5]
    return client.post(
        f"/api/v1/sittings/{small.sitting.pk}/van",
        {"seq": seq, "winner": winner, "cuoc": ["tom"]},
        content_type="application/json",
        headers={"Idempotency-Key": uuid.uuid4().hex},
    )


def _confirm(client: Client, small: Small, seq: int, how: str) -> int:
    pk = small.sitting.pk
    if how == "api":
        return client.post(
            f"/api/v1/sittings/{pk}/van/{seq}/confirm",
            content_type="application/json",
            headers={"Idempotency-Key": uuid.uuid4().hex},
        ).status_code
    if how == "api-reject":
        return client.post(
            f"/api/v1/sittings/{pk}/van/{seq}/reject",
            {"reason": "sai"},
            content_type="application/json",
            headers={"Idempotency-Key": uuid.uuid4().hex},
        ).status_code
    return client.post(
        f"/so-diem/{pk}/van/{seq}/xac-nhan/", {"key": uuid.uuid4().hex}, headers={"HX-Request": "true"}
    ).status_code


def _status(small: Small, seq: int) -> str:
    return Van.objects.get(sitting=small.sitting, seq=seq, is_current=True).status


@pytest.fixture
def small() -> Small:
    return small_event(prefix="C", confirmation_required=True)


def _player_account(small: Small, position: int, name: str) -> Any:
    """An account for the player seated at ``position`` (a seated player may confirm)."""
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    seat = small.sitting.seats.get(position=position)
    seat.player.user = user
    seat.player.save(update_fields=["user"])
    return user


HOW = ["api", "page", "api-reject"]


def test_a_pin_session_records_what_entered_the_van(small: Small) -> None:
    phone = small.pin_client()
    assert _record(phone, small, 1).status_code == 201
    van = Van.objects.get(sitting=small.sitting, seq=1)
    assert van.entered_by_id is None
    assert (van.entered_grant, van.entered_grant_by_id) == (f"token:{small.token.pk}", small.organiser.pk)
    assert len(van.entered_device) == 32 and van.status == VanStatus.PROVISIONAL


@pytest.mark.parametrize("how", HOW)
def test_the_organiser_who_issued_the_pin_cannot_confirm_what_it_entered(
    small: Small, probe: Any, how: str
) -> None:
    phone = small.pin_client()
    assert _record(phone, small, 1).status_code == 201
    own_account = Client()  # another browser: only the issuer rule can tell
    own_account.force_login(small.organiser)
    status = _confirm(own_account, small, 1, how)
    probe.check(
        status == 403 and _status(small, 1) == VanStatus.PROVISIONAL,
        f"issuer confirmed a ván entered with their PIN ({how}): {status}",
    )


@pytest.mark.parametrize("how", HOW)
def test_the_same_phone_signed_in_cannot_confirm_what_it_entered(small: Small, probe: Any, how: str) -> None:
    player = _player_account(small, 1, "nguoi-choi-1")
    phone = small.pin_client()
    assert _record(phone, small, 1).status_code == 201
    phone.post("/dang-nhap/", {"username": "nguoi-choi-1", "password": PASSWORD})  # same phone, now signed in
    assert phone.session.get("_auth_user_id") == str(player.pk)
    from tournaments.services.tokens import token_revoke

    token_revoke(token=small.token)  # not the grant any more: the device alone must tell
    status = _confirm(phone, small, 1, how)
    probe.check(
        status == 403 and _status(small, 1) == VanStatus.PROVISIONAL,
        f"the device that entered a ván confirmed it ({how}): {status}",
    )


@pytest.mark.parametrize("how", HOW)
def test_another_phone_holding_the_same_pin_cannot_confirm(small: Small, probe: Any, how: str) -> None:
    _player_account(small, 2, "nguoi-choi-2")
    phone = small.pin_client()
    assert _record(phone, small, 1).status_code == 201
    other = small.pin_client()  # a second phone typed the same PIN, then its holder signed in
    other.post("/dang-nhap/", {"username": "nguoi-choi-2", "password": PASSWORD})
    status = _confirm(other, small, 1, how)
    probe.check(
        status == 403 and _status(small, 1) == VanStatus.PROVISIONAL,
        f"a session holding the grant that entered a ván confirmed it ({how}): {status}",
    )


@pytest.mark.parametrize("how", ["api", "page"])
def test_a_second_person_still_confirms(small: Small, probe: Any, how: str) -> None:
    """The control: a seated player on their own phone confirms the PIN's ván."""
    _player_account(small, 3, "nguoi-choi-3")
    assert _record(small.pin_client(), small, 1).status_code == 201
    own_phone = Client()
    own_phone.post("/dang-nhap/", {"username": "nguoi-choi-3", "password": PASSWORD})
    status = _confirm(own_phone, small, 1, how)
    probe.check(
        status == 200 and _status(small, 1) == VanStatus.CONFIRMED, f"a second person was refused: {status}"
    )


def test_the_database_refuses_the_issuer_as_confirmer(small: Small, probe: Any) -> None:
    assert _record(small.pin_client(), small, 1).status_code == 201
    van = Van.objects.get(sitting=small.sitting, seq=1)
    try:
        with transaction.atomic():
            Van.objects.filter(pk=van.pk).update(status=VanStatus.CONFIRMED, confirmed_by=small.organiser)
        held = False
    except IntegrityError:
        held = True
    probe.check(held, "a raw UPDATE made the PIN's issuer the confirmer")
