"""Session fixation: a session cookie planted on a phone is worth nothing once the phone is given a grant.

Finding 10 of issue 20: the session key was not rotated when a PIN or QR grant was added, so whoever
planted a session cookie on a scorekeeper's phone (a link, a shared computer) then read and wrote
table A's sitting with it. Now every grant added to a session gives it a new key
(``request.session.cycle_key()`` in :func:`tournaments.views.table._remember`), like signing in does.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client

from tests.reliability.probe_setup import PASSWORD, Small, fast_hashes, small_event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_hashes")]
__all__ = ["fast_hashes"]


def _planted() -> str:
    """A live session the attacker holds the key of."""
    store = SessionStore()
    store["planted"] = True
    store.create()
    return str(store.session_key)


def _with_cookie(key: str) -> Client:
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    return client


def _reads_table(key: str, small: Small) -> bool:
    """Whether the attacker, with the planted key, gets the table's ván entry (not the PIN form)."""
    answer = _with_cookie(key).get(small.table_url())
    return answer.status_code == 200 and b'name="pin"' not in answer.content


def _reads_sitting(key: str, small: Small) -> bool:
    return _with_cookie(key).get(f"/api/v1/sittings/{small.sitting.pk}").status_code == 200


@pytest.mark.parametrize("door", ["pin", "qr"])
def test_a_grant_gives_the_phone_a_new_session_key(door: str, probe: Any) -> None:
    small = small_event(prefix="S")
    key = _planted()
    victim = _with_cookie(key)
    if door == "pin":
        answer = victim.post(f"{small.table_url()}ma-pin/", {"pin": small.token.pin})
    else:
        answer = victim.get(f"{small.table_url()}?ma={small.token.secret}")
    assert answer.status_code == 302
    new_key = victim.cookies[settings.SESSION_COOKIE_NAME].value
    probe.check(new_key != key, f"{door}: the session kept the planted key")
    probe.check(not _reads_table(key, small), f"{door}: the planted key opens the table's ván entry")
    probe.check(not _reads_sitting(key, small), f"{door}: the planted key reads the table's sitting (API)")
    # The victim keeps the grant under the new key.
    probe.check(_reads_table(new_key, small), f"{door}: the phone lost its grant")


def test_signing_in_gives_a_new_session_key_too(probe: Any, django_user_model: Any) -> None:
    """The control: Django rotates the key when someone signs in."""
    django_user_model.objects.create_user("thu-ky-s", password=PASSWORD)
    key = _planted()
    victim = _with_cookie(key)
    assert victim.post("/dang-nhap/", {"username": "thu-ky-s", "password": PASSWORD}).status_code == 302
    probe.check(victim.cookies[settings.SESSION_COOKIE_NAME].value != key, "sign-in kept the planted key")
    probe.check(_with_cookie(key).get("/so-diem/").status_code == 302, "the planted key is signed in")
