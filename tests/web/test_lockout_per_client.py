"""Lock-out per client and account, never the account for everyone (issue 30, item 7).

At 7854447, 20 wrong passwords against any account name (or 20 wrong PINs at a table) locked the
organiser, the Trung Quân or the table for 15 minutes, the right password included, for everyone,
and could be repeated. Now (:mod:`scoring.services.throttle`, :mod:`scoring.devices`):

* tries are counted per *client* (address + device cookie) and account name: 10 wrong go through,
  then one per 3 seconds (the name's ceiling), the 20th locks **that client** for 15 minutes;
* other clients, and the owner on a device that signed in before, still sign in with the right
  password: the ceiling only slows devices the name does not know (3 seconds at most), never locks;
* the same for a table's PIN: wrong PINs from one phone lock that phone, not the table.

Each test names a line of the threat model in ``docs/reliability.md``. On PostgreSQL and the SQLite
file (marked ``sqlite``); time-machine moves the clock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client

from scoring.models import AccessThrottle
from scoring.services.throttle import LIMIT, LOCK_FOR, PACE_AFTER, PACE_EVERY
from tests.reliability.probe_setup import small_event

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

PASSWORD = "mat-khau-that-dai-2025"
DOORS = {"site": "/dang-nhap/", "console": "/trung-quan/dang-nhap/", "admin": "/admin/login/"}
T0 = datetime(2025, 2, 3, 8, 0, tzinfo=UTC)
WAIT = "hãy chờ"
LOCKED = "tạm khóa"


@pytest.fixture(autouse=True)
def _fast_hashes(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def staff(django_user_model: Any) -> Any:
    """The account under attack: staff, so every door (the admin's too) lets it in."""
    return django_user_model.objects.create_user(
        "quan-tri", password=PASSWORD, is_staff=True, is_superuser=True
    )


def device(address: str, *, cookie: bool = True) -> Client:
    """A browser at ``address``; with ``cookie`` it opened the sign-in page first (the device cookie)."""
    client = Client(REMOTE_ADDR=address)
    if cookie:
        client.get("/dang-nhap/")
    return client


def sign_in(client: Client, door: str, password: str, *, drop_cookies: bool = False) -> Any:
    if drop_cookies:
        client.cookies.clear()
    return client.post(DOORS[door], {"username": "quan-tri", "password": password, "next": "/admin/"})


def let_in(response: Any) -> bool:
    return response.status_code == 302


def said(response: Any, words: str) -> bool:
    return words in response.content.decode()


def checked(response: Any) -> bool:
    """Refused as a wrong password (the password was looked at): not let in, not told to wait, not locked."""
    return response.status_code == 200 and not said(response, WAIT) and not said(response, LOCKED)


@pytest.mark.parametrize("door", DOORS)
def test_wrong_passwords_from_one_client_slow_then_lock_that_client_and_no_one_else(
    staff: Any, door: str
) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        owner = device("10.0.0.1")
        assert let_in(sign_in(owner, door, PASSWORD))  # the owner's device: known from now on
        attacker = device("10.0.0.66")
        for n in range(1, PACE_AFTER + 1):  # the first ten wrong passwords are checked at once
            assert checked(sign_in(attacker, door, f"sai-{n}")), n
        slowed = sign_in(attacker, door, PASSWORD)  # the eleventh, at once: not even checked
        assert not let_in(slowed) and said(slowed, WAIT) and said(slowed, "3 giây")
        for n in range(PACE_AFTER + 1, LIMIT + 1):
            clock.shift(PACE_EVERY)
            answer = sign_in(attacker, door, f"sai-{n}")
            assert checked(answer) if n < LIMIT else said(answer, LOCKED), n  # the 20th: what comes next
        # Another client, a second later: the right password is only slowed (the name's ceiling)...
        other = device("10.0.0.7")
        clock.shift(timedelta(seconds=1))
        first = sign_in(other, door, PASSWORD)
        assert not let_in(first) and said(first, WAIT)
        clock.shift(PACE_EVERY)
        locked = sign_in(attacker, door, PASSWORD)  # the right password from that client: refused unchecked
        assert not let_in(locked) and said(locked, LOCKED)
        assert let_in(sign_in(other, door, PASSWORD))  # ...and let in
        # The attacker tries again at once (its lock holds), and then the owner, at that same
        # instant, on the known device: let in, neither slowed nor locked.
        assert said(sign_in(attacker, door, PASSWORD), LOCKED)
        assert let_in(sign_in(owner, door, PASSWORD))
        # The attacker's lock runs out 15 minutes after its twentieth try, and no sooner.
        clock.shift(LOCK_FOR - PACE_EVERY - timedelta(seconds=2))
        assert said(sign_in(attacker, door, PASSWORD), LOCKED)
        clock.shift(timedelta(seconds=1))
        assert let_in(sign_in(attacker, door, PASSWORD))


def test_a_guesser_rotating_nothing_cannot_lock_the_account_for_anyone_else(staff: Any) -> None:
    """Forty wrong passwords from one address without any cookie (dropped every time) lock that
    client only: the owner from another address, a fresh browser behind the same address (its own
    device cookie) and the owner's known device all sign in."""
    with time_machine.travel(T0, tick=False) as clock:
        known = device("10.0.0.1")
        assert let_in(sign_in(known, "site", PASSWORD))
        guesser = device("10.0.0.66", cookie=False)
        answers = []
        for n in range(1, 41):
            clock.shift(PACE_EVERY)
            answers.append(sign_in(guesser, "site", f"sai-{n}", drop_cookies=True))
        assert all(checked(a) for a in answers[: LIMIT - 1]) and said(answers[LIMIT - 1], LOCKED)
        assert all(said(a, LOCKED) for a in answers[LIMIT:])  # refused unchecked
        assert said(sign_in(guesser, "site", PASSWORD, drop_cookies=True), LOCKED)
        clock.shift(PACE_EVERY)
        assert let_in(sign_in(device("10.0.0.2"), "site", PASSWORD))  # the owner elsewhere, a new browser
        clock.shift(PACE_EVERY)
        assert let_in(sign_in(device("10.0.0.66"), "site", PASSWORD))  # a browser behind the same address
        assert let_in(sign_in(known, "site", PASSWORD))
    rows = AccessThrottle.objects.filter(key__startswith="login:")
    assert rows.filter(locked_until__isnull=False).count() == 1  # one client locked, not the account


def test_a_guesser_rotating_addresses_is_only_slowed_and_the_owner_is_never_locked_out(staff: Any) -> None:
    """Thirty wrong passwords at the same instant from thirty addresses: ten are checked, twenty are
    told to wait (unchecked). At that instant the owner's known device signs in; a device the name
    does not know waits three seconds at most. Then one try per three seconds, whatever the addresses."""
    with time_machine.travel(T0, tick=False) as clock:
        known = device("10.0.0.1")
        assert let_in(sign_in(known, "admin", PASSWORD))
        clock.shift(timedelta(minutes=1))
        answers = [sign_in(device(f"10.9.0.{n}"), "admin", f"sai-{n}") for n in range(1, 31)]
        assert sum(checked(a) for a in answers) == PACE_AFTER
        assert sum(said(a, WAIT) for a in answers) == 30 - PACE_AFTER
        assert not any(let_in(a) for a in answers)
        assert let_in(sign_in(known, "admin", PASSWORD))  # the same instant, the owner's own device
        # The owner's sign-in starts the name's count again; the guessers get ten more, then wait.
        more = [sign_in(device(f"10.8.0.{n}"), "admin", f"sai-{n}") for n in range(1, 12)]
        assert [checked(a) for a in more] == [True] * PACE_AFTER + [False]
        new_phone = device("10.0.0.3")
        assert said(sign_in(new_phone, "admin", PASSWORD), WAIT)
        clock.shift(PACE_EVERY)
        assert let_in(sign_in(new_phone, "admin", PASSWORD))


# -- a table's PIN ------------------------------------------------------------------------------------


def _phone(small: Any, address: str) -> Client:
    client = Client(REMOTE_ADDR=address)
    assert client.get(f"{small.table_url()}ma-pin/").status_code == 200  # the PIN page gives the cookie
    return client


def _pin(client: Client, small: Any, pin: str) -> Any:
    return client.post(f"{small.table_url()}ma-pin/", {"pin": pin})


def test_wrong_pins_from_one_phone_lock_that_phone_not_the_table() -> None:
    with time_machine.travel(T0, tick=False) as clock:
        small = small_event(prefix="L", is_public=False)
        right = small.token.pin
        wrong = "000000" if right != "000000" else "111111"
        before = _phone(small, "10.0.1.3")
        assert _pin(before, small, right).status_code == 302  # a phone that entered this table before
        attacker = _phone(small, "10.0.1.66")
        statuses = []
        for n in range(1, LIMIT + 1):
            if n > PACE_AFTER:
                clock.shift(PACE_EVERY)
            statuses.append(_pin(attacker, small, wrong).status_code)
        assert statuses == [422] * LIMIT
        locked = _pin(attacker, small, right)
        assert locked.status_code == 429 and said(locked, "Nhập sai 20 lần liền")
        # The table is not locked: the phone that entered before, at once; a new phone after 3 s.
        before.cookies.pop("sessionid", None)  # its session lost (signed out, cleared): types the PIN again
        assert _pin(before, small, right).status_code == 302
        new_phone = _phone(small, "10.0.1.4")
        assert _pin(new_phone, small, right).status_code in (302, 429)
        clock.shift(PACE_EVERY)
        assert _pin(new_phone, small, right).status_code == 302
        assert _pin(attacker, small, right).status_code == 429  # the attacker's phone stays locked


def test_phones_behind_the_lan_https_listener_are_told_apart_by_their_own_address(settings: Any) -> None:
    """`make run HOST=0.0.0.0`'s HTTPS listener passes every phone on from 127.0.0.1: the address it
    forwards is the client's, but only on a request carrying the run's secret (threat model, lock-out:
    "a client is the address plus the device cookie")."""
    from django.test import RequestFactory

    from scoring.devices import client_address

    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_SOTOM_TLS", "run-secret")
    factory = RequestFactory()
    through_listener = factory.get(
        "/dang-nhap/",
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_SOTOM_TLS="run-secret",
        HTTP_X_FORWARDED_FOR="192.168.1.23",
    )
    forged = factory.get(
        "/dang-nhap/",
        REMOTE_ADDR="192.168.1.50",
        HTTP_X_SOTOM_TLS="guess",
        HTTP_X_FORWARDED_FOR="192.168.1.23",
    )
    assert client_address(through_listener) == "192.168.1.23"
    assert client_address(forged) == "192.168.1.50"
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")  # another proxy: not trusted
    assert client_address(through_listener) == "127.0.0.1"
