"""Factories for models, and helpers that build sittings through the services (never by hand:
the ledger is written only by the services)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import factory
from django.contrib.auth import get_user_model
from factory.django import DjangoModelFactory

from scoring.models import Club, ClubKind, Player, Sitting, Van

FIVE = ("An", "Bình", "Chi", "Dũng", "Em")


class UserFactory(DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"ghi-diem-{n}")


class ClubFactory(DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Làng {n}")
    slug = factory.Sequence(lambda n: f"lang-{n}")
    kind = ClubKind.VILLAGE


class PlayerFactory(DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Người {n}")
    club = None


def new_key() -> str:
    """A fresh client idempotency key."""
    return str(uuid.uuid4())


def open_sitting(
    *,
    players: Sequence[Any] = FIVE,
    game: str = "to-tom-5",
    rules: Any = "luat-2005",
    mode: str = "quang",
    **extra: Any,
) -> Sitting:
    """A sitting opened by the service (players by name: new guests unless they exist)."""
    from scoring.services.sittings import sitting_open

    return sitting_open(
        game=game, rules=rules, mode=mode, players=list(players), idempotency_key=new_key(), **extra
    ).obj


def record_all(sitting: Sitting, records: Iterable[Mapping[str, Any]], **extra: Any) -> list[Van]:
    """Record ``records`` as the sitting's next ván, in order."""
    from scoring.services.sittings import van_record

    done = []
    start = sitting.van.filter(is_current=True).count()
    for seq, record in enumerate(records, start=start + 1):
        done.append(
            van_record(sitting=sitting, seq=seq, record=record, idempotency_key=new_key(), **extra).obj
        )
    return done


def without_code(body: Any) -> Any:
    """An API error body with its machine-readable ``code`` checked (a stable snake_case word) and
    taken out, to compare with what the command line prints (the CLI's JSON carries no code)."""
    if isinstance(body, dict) and "error" in body:
        code = body.get("code")
        assert isinstance(code, str) and code.replace("_", "").isalpha() and code.islower(), body
        return {k: v for k, v in body.items() if k != "code"}
    return body
