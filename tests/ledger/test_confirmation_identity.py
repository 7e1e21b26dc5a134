"""Two-person confirmation by identity, not by session (issue 30, finding 2).

A table phone names its holder (one of the seated players) when it enters the PIN; the ván records
that player. The probe's three ways for the holder to confirm their own ván are refused: signing
out and in again as their own player on the same phone, a private window, their account's API
token. Another seated player confirms; the audit names who entered and who confirmed.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.test import Client
from rest_framework.authtoken.models import Token

from scoring.models import Van, VanReview, VanStatus
from scoring.selectors.audit import sitting_audit
from scoring.selectors.ledger import sitting_history
from tests.reliability.probe_setup import PASSWORD, Small, fast_hashes, small_event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_hashes"), pytest.mark.sqlite]
__all__ = ["fast_hashes"]


@pytest.fixture
def small() -> Small:
    return small_event(prefix="X", confirmation_required=True)


def _account(small: Small, position: int, username: str) -> Any:
    """An account linked to the player seated at ``position``."""
    user = get_user_model().objects.create_user(username, password=PASSWORD)
    player = small.sitting.seats.get(position=position).player
    player.user = user
    player.save(update_fields=["user"])
    return user


def _record(client: Client, small: Small, seq: int, **headers: str) -> Any:
    return client.post(
        f"/api/v1/sittings/{small.sitting.pk}/van",
        {"seq": seq, "winner": small.seat_names()[seq % 5], "cuoc": ["tom"]},
        content_type="application/json",
        headers={"Idempotency-Key": uuid.uuid4().hex, **headers},
    )


def _review(client: Client, small: Small, seq: int, how: str, **headers: str) -> Any:
    pk = small.sitting.pk
    if how == "page":
        return client.post(
            f"/so-diem/{pk}/van/{seq}/xac-nhan/", {"key": uuid.uuid4().hex}, headers={"HX-Request": "true"}
        )
    action, body = ("confirm", None) if how == "api" else ("reject", {"reason": "sai"})
    return client.post(
        f"/api/v1/sittings/{pk}/van/{seq}/{action}",
        body,
        content_type="application/json",
        headers={"Idempotency-Key": uuid.uuid4().hex, **headers},
    )


def _status(small: Small, seq: int) -> str:
    return Van.objects.get(sitting=small.sitting, seq=seq, is_current=True).status


def _sign_in(client: Client, username: str) -> None:
    answer = client.post("/dang-nhap/", {"username": username, "password": PASSWORD})
    assert answer.status_code == 302, answer.status_code


HOW = ["page", "api", "api-reject"]


def test_the_pin_phone_records_the_holder_it_named(small: Small) -> None:
    assert _record(small.pin_client(holder=2), small, 1).status_code == 201
    van = Van.objects.get(sitting=small.sitting, seq=1)
    holder = small.sitting.seats.get(position=2).player
    assert (van.entered_by_id, van.entered_player_id) == (None, holder.pk)
    assert van.status == VanStatus.PROVISIONAL


@pytest.mark.parametrize("how", HOW)
def test_signing_out_and_in_as_the_holder_on_the_same_phone_is_refused(small: Small, how: str) -> None:
    _account(small, 1, "tu-x")
    phone = small.pin_client(holder=1)
    assert _record(phone, small, 1).status_code == 201
    phone.post("/dang-xuat/")  # the session, its grant and its device id are gone
    assert "_auth_user_id" not in phone.session
    _sign_in(phone, "tu-x")
    answer = _review(phone, small, 1, how)
    assert answer.status_code == 403, answer.content
    assert _status(small, 1) == VanStatus.PROVISIONAL
    assert "người thứ hai" in answer.content.decode()


@pytest.mark.parametrize("how", HOW)
def test_the_holder_in_a_private_window_is_refused(small: Small, how: str) -> None:
    _account(small, 1, "tu-x")
    assert _record(small.pin_client(holder=1), small, 1).status_code == 201
    private = Client()  # nothing shared with the phone: no cookie, no device id, no grant
    _sign_in(private, "tu-x")
    answer = _review(private, small, 1, how)
    assert answer.status_code == 403
    assert _status(small, 1) == VanStatus.PROVISIONAL
    name = small.sitting.seats.get(position=1).name
    assert name in answer.content.decode()


@pytest.mark.parametrize("how", ["api", "api-reject"])
def test_the_holders_api_token_is_refused(small: Small, how: str) -> None:
    user = _account(small, 1, "tu-x")
    assert _record(small.pin_client(holder=1), small, 1).status_code == 201
    token = Token.objects.create(user=user)
    answer = _review(Client(), small, 1, how, Authorization=f"Token {token.key}")
    assert answer.status_code == 403
    assert "người thứ hai" in answer.json()["error"]
    assert _status(small, 1) == VanStatus.PROVISIONAL


def test_the_refusal_is_in_english_on_en(small: Small) -> None:
    _account(small, 1, "tu-x")
    assert _record(small.pin_client(holder=1), small, 1).status_code == 201
    private = Client()
    _sign_in(private, "tu-x")
    answer = private.post(
        f"/en/so-diem/{small.sitting.pk}/van/1/xac-nhan/",
        {"key": uuid.uuid4().hex},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 403
    body = answer.content.decode()
    assert "was entered by" in body and "second person" in body


def test_an_account_that_entered_a_van_is_its_seated_player_on_any_channel(small: Small) -> None:
    """The same rule the other way round: a player enters by account, then names themselves on a
    table phone (or uses a token): still one person."""
    user = _account(small, 3, "chi-x")
    token = Token.objects.create(user=user)
    assert (
        _record(Client(), small, 1, Authorization=f"Token {token.key}").status_code == 403
    )  # a player does not keep score
    small.organiser.refresh_from_db()
    keeper = Client()
    keeper.force_login(small.organiser)
    assert _record(keeper, small, 1).status_code == 201
    # The organiser is not seated: any seated player's account confirms it.
    assert _review(Client(), small, 1, "api", Authorization=f"Token {token.key}").status_code == 200


@pytest.mark.parametrize("channel", ["page", "api-token"])
def test_another_seated_player_confirms_and_the_audit_names_both(small: Small, channel: str) -> None:
    _account(small, 1, "tu-x")
    other = _account(small, 2, "nam-x")
    assert _record(small.pin_client(holder=1), small, 1).status_code == 201
    if channel == "page":
        client = Client()
        _sign_in(client, "nam-x")
        answer = _review(client, small, 1, "page")
    else:
        token = Token.objects.create(user=other)
        answer = _review(Client(), small, 1, "api", Authorization=f"Token {token.key}")
    assert answer.status_code == 200
    assert _status(small, 1) == VanStatus.CONFIRMED
    seats = {s.position: s for s in small.sitting.seats.select_related("player")}
    entering, confirming = seats[1].player, seats[2].player
    van = Van.objects.get(sitting=small.sitting, seq=1)
    assert (van.entered_player_id, van.confirmed_by_id, van.confirmed_player_id) == (
        entering.pk,
        other.pk,
        confirming.pk,
    )
    review = VanReview.objects.get(van=van)
    assert (review.submitter_player_id, review.reviewer_player_id) == (entering.pk, confirming.pk)
    # The history (page and API) and the organisers' audit trail name both people.
    history = {e["event"]: e for e in sitting_history(small.sitting) if e.get("seq") == 1}
    assert history["ghi_van"]["player"] == entering.name
    assert (history["xac_nhan_van"]["by"], history["xac_nhan_van"]["player"]) == ("nam-x", confirming.name)
    trail = {e.action: e.who for e in sitting_audit(small.sitting)}
    assert any(entering.name in who for who in trail.values())
    assert any(who == f"nam-x ({confirming.name})" for who in trail.values())
    organiser = Client()
    organiser.force_login(small.organiser)
    page = organiser.get(f"/so-diem/{small.sitting.pk}/nhat-ky/").content.decode()
    assert entering.name in page and f"nam-x ({confirming.name})" in page


def test_a_table_phone_must_name_its_holder_before_entering(small: Small) -> None:
    phone = small.pin_client(holder=None)
    page = phone.get(small.table_url())
    assert page.status_code == 200
    body = page.content.decode()
    assert 'data-testid="holder-choice"' in body and "Ai đang cầm máy này?" in body
    refused = _record(phone, small, 1)
    assert refused.status_code == 400 and "ai đang cầm máy" in refused.json()["error"]
    assert not Van.objects.filter(sitting=small.sitting).exists()
    # Not a seated player: refused; a seated one: the table page opens for entry.
    stranger = phone.post(f"{small.table_url()}nguoi-cam-may/", {"holder": "999999"})
    assert stranger.status_code == 400
    holder = small.sitting.seats.get(position=4).player
    assert phone.post(f"{small.table_url()}nguoi-cam-may/", {"holder": holder.pk}).status_code == 302
    assert 'data-testid="holder-choice"' not in phone.get(small.table_url()).content.decode()
    assert _record(phone, small, 1).status_code == 201
    assert Van.objects.get(sitting=small.sitting, seq=1).entered_player_id == holder.pk


def test_only_a_device_holding_the_token_names_a_holder(small: Small) -> None:
    holder = small.sitting.seats.get(position=1).player
    assert Client().post(f"{small.table_url()}nguoi-cam-may/", {"holder": holder.pk}).status_code == 403


def test_the_pin_page_of_a_private_event_names_nobody_until_the_pin() -> None:
    small = small_event(prefix="K", is_public=False, confirmation_required=True)
    names = small.seat_names()
    before = Client().get(f"{small.table_url()}ma-pin/").content.decode()
    assert not any(name in before for name in names)
    phone = small.pin_client(holder=None)
    after = phone.get(small.table_url()).content.decode()
    assert all(name in after for name in names)


def test_the_database_refuses_one_player_on_both_sides(small: Small) -> None:
    confirmer = _account(small, 2, "nam-x")
    assert _record(small.pin_client(holder=1), small, 1).status_code == 201
    van = Van.objects.get(sitting=small.sitting, seq=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Van.objects.filter(pk=van.pk).update(
            status=VanStatus.CONFIRMED, confirmed_by=confirmer, confirmed_player_id=van.entered_player_id
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        VanReview.objects.create(
            van=van,
            decision="xac_nhan",
            reviewer=confirmer,
            reviewer_player_id=van.entered_player_id,
            submitter_player_id=van.entered_player_id,
        )


def test_the_backup_keeps_who_entered_and_who_confirmed(small: Small) -> None:
    from scoring.backup.write import sitting_backup

    other = _account(small, 2, "nam-x")
    assert _record(small.pin_client(holder=1), small, 1).status_code == 201
    token = Token.objects.create(user=other)
    assert _review(Client(), small, 1, "api", Authorization=f"Token {token.key}").status_code == 200
    seats = {s.position: s.player_id for s in small.sitting.seats.all()}
    [van] = sitting_backup(small.sitting)["van"]
    assert (van["entered_player"], van["confirmed_player"]) == (seats[1], seats[2])
    assert (van["reviews"][0]["submitter_player"], van["reviews"][0]["reviewer_player"]) == (
        seats[1],
        seats[2],
    )
