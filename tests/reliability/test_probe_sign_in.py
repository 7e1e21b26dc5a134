"""Password guessing at every door: the site's sign-in, the console's and the admin's share one lock-out.

Finding 3 of issue 20: ``/admin/login/`` was not counted (30 wrong passwords, then the right one:
302 to ``/admin/``). Now every door counts against the same account name and client
(:func:`scoring.views.accounts.throttled_clean`): after 20 wrong passwords in a row that client is
locked out of the name, the right password included, whichever door it uses next. Since issue 30
the lock is the guessing client's only: the owner's own device still gets in, at any door.
"""

from __future__ import annotations

from typing import Any

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from scoring.services.throttle import LIMIT, PACE_EVERY
from tests.reliability.probe_setup import fast_hashes

# A fast hasher: the counter is what is tested here, not PBKDF2's cost (~120 checks a test).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_hashes")]
__all__ = ["fast_hashes"]

PASSWORD = "mat-khau-that-dai-2025"
DOORS = {"admin": "/admin/login/", "site": "/dang-nhap/", "console": "/trung-quan/dang-nhap/"}


@pytest.fixture
def staff(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user(
        "quan-tri", password=PASSWORD, is_staff=True, is_superuser=True
    )


def _try(door: str, password: str, username: str = "quan-tri", client: Client | None = None) -> Any:
    client = client if client is not None else Client()
    return client.post(DOORS[door], {"username": username, "password": password, "next": "/admin/"})


def _let_in(response: Any) -> bool:
    return response.status_code == 302


def test_the_right_password_still_opens_the_admin(staff: Any) -> None:
    assert _let_in(_try("admin", PASSWORD))


@pytest.mark.parametrize(
    "first, then", [("admin", "admin"), ("site", "admin"), ("admin", "site"), ("console", "admin")]
)
def test_thirty_wrong_passwords_lock_every_door(staff: Any, probe: Any, first: str, then: str) -> None:
    guesser, owner = Client(REMOTE_ADDR="10.0.0.66"), Client(REMOTE_ADDR="10.0.0.1")
    guesser.get("/dang-nhap/")  # a browser: the device cookie before the first try
    assert _let_in(_try(then, PASSWORD, client=owner))  # the owner's own device, known from now on
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for n in range(1, 31):
            clock.shift(PACE_EVERY)  # the name's ceiling: one try per 3 s after the tenth
            response = _try(first, f"sai-{n}", client=guesser)
            probe.check(not _let_in(response), f"wrong password {n} at {first} let in")
            if n > LIMIT:
                probe.check(
                    "tạm khóa" in response.content.decode(), f"try {n} at {first} not told it is locked"
                )
        response = _try(then, PASSWORD, client=guesser)
        probe.check(
            not _let_in(response),
            f"right password at {then} after 30 wrong at {first}: "
            f"{response.status_code} {response.get('Location', '')}",
        )
        probe.check(
            "tạm khóa" in response.content.decode(), f"right password at {then}: not told the name is locked"
        )
        # Another capitalisation is the same name; the owner's device is not locked out.
        probe.check(
            not _let_in(_try(then, PASSWORD, username="QUAN-TRI", client=guesser))
            and _let_in(_try(then, PASSWORD, client=owner)),
            "another capitalisation got in, or the owner was locked out",
        )
