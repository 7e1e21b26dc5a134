"""The benchmarks' scorekeepers, as a festival's are: each an account among the organisers (chủ sổ)
of the village holding the festival, keeping score in that village's canh bài.

The ván quota (``scoring/services/quotas.py``: ``QUOTA_VAN_PER_HOUR`` ván an hour for an account,
``QUOTA_OWN_FACTOR`` times more in its own club or festival) bounds a stranger's new account scripting
the API, not a club recording its own canh: so the benchmarks' phones are organisers in their own
village (one account each, as each chiếu's phone is its own), never one new account posting for
everyone (which met the stranger's 600 ván an hour within seconds, and had every phone queue on
that one account's quota row). One village for all (the first opens it and names the others chủ
sổ), so the list of clubs the bare API view answers stays one row.

Run in the checkout being measured (``bench/serving.py`` seeds an older checkout with it too): it
uses only ``club_open``, ``role_grant`` and ``sitting_open``, which every measured checkout has.
"""

from __future__ import annotations

from typing import Any

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]


def scorekeepers(count: int, sittings_each: int, *, prefix: str = "thu-ky-do-tai") -> list[dict[str, Any]]:
    """``count`` scorekeepers, each an account with its API token, an organiser of the village
    ``Làng đo tải``, and ``sittings_each`` open canh of Tổ Tôm (five players) of its own there.
    Returns ``[{"token": …, "club": slug, "sittings": [id, …]}, …]``."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from scoring.models import ClubRoleKind
    from scoring.services.roles import club_open, role_grant
    from scoring.services.sittings import sitting_open

    out: list[dict[str, Any]] = []
    club, first = None, None
    for k in range(count):
        user = get_user_model().objects.create_user(f"{prefix}-{k + 1}")
        if club is None:
            club, first = club_open(name="Làng đo tải", organiser=user, idempotency_key=None).obj, user
        else:
            role_grant(club=club, username=user.username, role=ClubRoleKind.ORGANISER, granted_by=first)
        sittings = [
            sitting_open(
                game="to-tom-5",
                rules="luat-2005",
                mode="quang",
                players=FIVE,
                club=club,
                created_by=user,
                idempotency_key=None,
            ).obj.pk
            for _ in range(sittings_each)
        ]
        out.append({"token": Token.objects.create(user=user).key, "club": club.slug, "sittings": sittings})
    return out
