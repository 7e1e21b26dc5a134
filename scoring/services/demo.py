"""Demo data for `make run`: idempotent (looked up by natural keys, never duplicated).

Always: the demo village rule set. With ``with_user`` (``load_demo --with-demo-user``, which
`make run` passes, or any run with DEBUG on) also a demo organiser account, ``thu-ky`` /
``so-tom-demo``, who owns a demo village (chủ sổ) with several canh (one under the village's own
rule set, with a correction and a penalty; one settled up), so that a fresh `make run` has
someone to sign in as and something to look at.

Other apps add their own parts (the tournaments app: a festival with its tables, console and
leaderboard) by registration: :func:`load_demo` imports each installed app's ``demo`` module
(Django's ``autodiscover_modules``, as the admin finds ``admin`` modules), which calls
:func:`register_demo_part`. The ledger app never imports them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils.module_loading import autodiscover_modules

from scoring.models import Club, ClubKind, ClubRole, ClubRoleKind, Sitting, Van, VillageRuleSet
from scoring.services.rules import village_rules_save

__all__ = [
    "DEMO_CLUB",
    "DEMO_PASSWORD",
    "DEMO_USERNAME",
    "DemoLoaded",
    "DemoPart",
    "load_demo",
    "register_demo_part",
]

DEMO_VILLAGE_RULES = [
    {
        "slug": "lang-mau-kinh-cu-24",
        "name": "Làng mẫu: Kính Cụ 24, Bạch Định 16",
        "preset": "luat-2005",
        "description": "Một lệ làng trong các chủ đề bàn luận: Kính Cụ 24, Bạch Định 16, Thập Điều 16, "
        "Chi Nẩy 24, Kính Tứ Cố 50.",
        "overrides": {
            "cuoc": {
                "kinh_cu": {"main": 24, "boi": None},
                "bach_dinh": {"main": 16, "boi": None},
                "thap_dieu": {"main": 16, "boi": None},
                "chi_nay": {"main": 24, "boi": None},
                "kinh_tu_co": {"main": 50, "boi": None},
            }
        },
    },
]

#: The demo organiser's account (printed by ``load_demo``; never made unless asked for).
DEMO_USERNAME = "thu-ky"
DEMO_PASSWORD = "so-tom-demo"
DEMO_CLUB = {"slug": "lang-mau-dong-ngac", "name": "Làng mẫu Đông Ngạc", "kind": ClubKind.VILLAGE}
FIVE = ["Cụ Tư", "Bác Năm", "Chú Sáu", "Anh Bảy", "Cô Tám"]

#: The demo village's canh, each with its ván; ``corrections``: (ván number, new record, reason);
#: ``settled``: settled up at the end (the canh is then closed).
DEMO_SITTINGS: list[dict[str, Any]] = [
    {
        "open": {
            "title": "Canh bài mẫu ở đình làng",
            "game": "to-tom-5",
            "rules": "luat-2005",
            "mode": "quang",
            "players": FIVE,
        },
        "van": [
            {"winner": "Cụ Tư", "cuoc": ["tom"], "discarder": "Bác Năm"},
            {"winner": "Cụ Tư", "cuoc": ["leo"]},
            {"result": "hoa"},
            {"winner": "Anh Bảy", "cuoc": ["thap_dieu"], "chiu": ["Cô Tám"]},
        ],
    },
    {
        "open": {
            "title": "Canh rằm tháng Giêng theo lệ làng",
            "game": "to-tom-5",
            "rules": "lang-mau-kinh-cu-24",
            "mode": "quang",
            "players": FIVE,
        },
        "van": [
            {"winner": "Bác Năm", "cuoc": ["thap_dieu"]},
            {"winner": "Chú Sáu", "cuoc": ["tom"], "discarder": "Cụ Tư", "fault": "danh_u_den"},
            {"winner": "Cô Tám", "cuoc": ["chi_nay"]},
            {"result": "hoa"},
            {"winner": "Anh Bảy", "cuoc": ["leo"]},
        ],
        "corrections": [
            (3, {"winner": "Cô Tám", "cuoc": ["kinh_cu"]}, "Ghi nhầm cước: là Kính Cụ, không phải Chi Nẩy")
        ],
    },
    {
        "open": {
            "title": "Canh mùng 2 Tết (đã thanh toán)",
            "game": "to-tom-5",
            "rules": "luat-2005",
            "mode": "quang",
            "players": FIVE,
        },
        "van": [
            {"winner": "Anh Bảy", "cuoc": ["tom"]},
            {"winner": "Cụ Tư", "cuoc": ["thap_dieu"]},
            {"winner": "Cô Tám", "cuoc": ["leo"]},
        ],
        "settled": True,
    },
]


@dataclass
class DemoLoaded:
    """What the demo holds: counts by what they count, and the pages to open first (label, path)."""

    counts: dict[str, int] = field(default_factory=dict)
    pages: list[tuple[str, str]] = field(default_factory=list)

    def add(self, other: DemoLoaded) -> None:
        self.counts.update(other.counts)
        self.pages.extend(other.pages)


#: A part of the demo another app adds: called with the demo organiser and the demo village (in
#: its own transaction), it loads what is missing and answers what it holds.
DemoPart = Callable[[Any, Club], DemoLoaded]
_PARTS: list[DemoPart] = []


def register_demo_part(part: DemoPart) -> DemoPart:
    """Add ``part`` to the demo (once; usable as a decorator in an app's ``demo`` module)."""
    if part not in _PARTS:
        _PARTS.append(part)
    return part


def _demo_user() -> Any:
    users = get_user_model().objects
    user = users.filter(username=DEMO_USERNAME).first()
    if user is None:
        user = users.create_user(DEMO_USERNAME, password=DEMO_PASSWORD)
    return user


def _demo_club(user: Any) -> Club:
    club, _ = Club.objects.get_or_create(
        slug=DEMO_CLUB["slug"], defaults={"name": DEMO_CLUB["name"], "kind": DEMO_CLUB["kind"]}
    )
    ClubRole.objects.get_or_create(
        user=user, club=club, role=ClubRoleKind.ORGANISER, defaults={"granted_by": user}
    )
    return club


def _demo_sitting(user: Any, club: Club, spec: dict[str, Any]) -> None:
    from scoring.services.sittings import sitting_open, sitting_settle_up, van_correct, van_record

    if Sitting.objects.filter(club=club, title=spec["open"]["title"]).exists():
        return
    sitting = sitting_open(club=club, created_by=user, idempotency_key=None, **spec["open"]).obj
    for seq, record in enumerate(spec["van"], start=1):
        van_record(sitting=sitting, seq=seq, record=record, idempotency_key=None, entered_by=user)
    for seq, record, reason in spec.get("corrections", []):
        van = Van.objects.get(sitting=sitting, seq=seq, is_current=True)
        van_correct(van=van, record=record, reason=reason, corrected_by=user, idempotency_key=None)
    if spec.get("settled"):
        sitting_settle_up(sitting=sitting, settled_by=user, idempotency_key=None)


def load_demo(*, with_user: bool = False) -> DemoLoaded:
    """Load the demo data; with ``with_user`` also the demo organiser, its village with its canh,
    and every registered part of the other apps (each in its own transaction, so a part that
    fails leaves the account and the rest in place)."""
    with transaction.atomic():
        for item in DEMO_VILLAGE_RULES:  # owned by the demo village, whose organisers change them
            owner, _ = Club.objects.get_or_create(
                slug=DEMO_CLUB["slug"], defaults={"name": DEMO_CLUB["name"], "kind": DEMO_CLUB["kind"]}
            )
            if not VillageRuleSet.objects.filter(slug=item["slug"]).exists():
                village_rules_save(**item, owner_club=owner)
            VillageRuleSet.objects.filter(slug=item["slug"], owner_club=None, owner_user=None).update(
                owner_club=owner
            )
    loaded = DemoLoaded({"lệ làng": VillageRuleSet.objects.count()})
    if not with_user:
        return loaded
    with transaction.atomic():
        user = _demo_user()
        club = _demo_club(user)
        for spec in DEMO_SITTINGS:
            _demo_sitting(user, club, spec)
    with transaction.atomic():  # the club book's season: canh over several lunar months
        from scoring.services.demo_book import load_club_season

        loaded.counts.update(load_club_season(user=user, club=club, password=DEMO_PASSWORD))
    loaded.counts["canh bài của làng mẫu"] = Sitting.objects.filter(club=club).count()
    autodiscover_modules("demo")
    for part in _PARTS:
        with transaction.atomic():
            loaded.add(part(user, club))
    loaded.pages.append(("Sổ điểm: các canh bài của làng mẫu", reverse("scoring:sitting_list")))
    loaded.pages.append(
        (
            "Sổ của làng mẫu: điểm cả mùa, sao kê, thanh toán gộp, trình độ",
            reverse("scoring:club_book", args=[club.slug]),
        )
    )
    return loaded
