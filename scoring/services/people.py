"""Writes for clubs, villages and players (keyword-only, one transaction each, idempotent)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from scoring.engine import MAX_PLAYER_NAME, N_, EngineError
from scoring.models import Club, ClubKind, Player
from scoring.names import clean_name, name_key, refuse_look_alike
from scoring.selectors.ledger import club_json, player_json
from scoring.services.idempotency import Answer, Outcome, run_once
from scoring.text import vi_slugify

__all__ = ["EntryVia", "User", "Written", "acting_user", "club_create", "player_for_name", "player_create"]

#: Who acts, in the services' signatures: any user model (the project uses Django's).
User = AbstractBaseUser

T = TypeVar("T")


class Written(Generic[T]):
    """A write's object and its answer (``answer.replayed``: an idempotent repeat, nothing written).

    Without ``obj``, ``load`` reads it back, once, when ``obj`` is first asked for (the API answers
    from ``answer`` alone and never pays for it)."""

    __slots__ = ("_load", "_obj", "answer")

    def __init__(self, obj: T | None, answer: Answer, *, load: Callable[[], T] | None = None) -> None:
        self._obj = obj
        self._load = load
        self.answer = answer

    @property
    def obj(self) -> T:
        if self._obj is None:
            assert self._load is not None
            self._obj = self._load()
        return self._obj


@dataclass(frozen=True, slots=True)
class EntryVia:
    """How a write reached the sổ besides (or instead of) an account, recorded with a ván so that
    neither the same grant, nor the account that issued it, nor the same device confirms it
    (:mod:`scoring.services.review`).

    ``grant`` names a grant a device holds (``"token:12"``: a table's PIN or QR link; other apps
    name theirs), ``grant_by`` is the id of the account that issued it, ``device`` a digest of the
    device's own id (:func:`scoring.permissions.device_of`), ``player`` the seated player the device
    named as its holder (a table's PIN or QR link names one). Empty: none."""

    grant: str = ""
    grant_by: int | None = None
    device: str = ""
    player: int | None = None


NO_VIA = EntryVia()


def acting_user(*, user: Any) -> Any:
    """The signed-in account a change is recorded against (None: nobody signed in, e.g. a table
    PIN's session, a player's own check-in link, or a call outside any request)."""
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def _name(value: str, what: str, limit: int) -> str:
    return clean_name(value, what=what, limit=limit)


def club_create(
    *, name: str, kind: str = ClubKind.VILLAGE, slug: str = "", idempotency_key: str | None = None
) -> Written[Club]:
    """Create a village or club; its slug comes from its name unless given."""
    name = _name(name, gettext("làng hoặc câu lạc bộ"), 120)
    if kind not in ClubKind.values:
        raise EngineError(
            N_("Loại '{kind}' không hợp lệ: dùng 'lang' (làng) hoặc 'clb' (câu lạc bộ)."), kind=kind
        )
    slug = vi_slugify(slug or name)[:60] or "lang"

    def action() -> Answer:
        if Club.objects.filter(slug=slug).exists():
            raise EngineError(N_("Đã có làng hoặc câu lạc bộ mang mã '{slug}'."), slug=slug)
        same = Club.objects.filter(name_key=name_key(name)).first()
        if same is not None:
            raise EngineError(
                N_("Đã có làng hoặc câu lạc bộ tên “{name}” (mã {slug}): hãy đặt tên khác."),
                name=same.name,
                slug=same.slug,
            )
        try:
            with transaction.atomic():
                club = Club.objects.create(name=name, slug=slug, kind=kind)
        except IntegrityError as exc:
            raise EngineError(N_("Đã có làng hoặc câu lạc bộ mang mã '{slug}'."), slug=slug) from exc
        return Answer(Outcome.CREATED, club_json(club))

    answer = run_once(
        key=idempotency_key,
        operation="club_create",
        target=None,
        payload={"name": name, "kind": kind, "slug": slug},
        action=action,
    )
    return Written(Club.objects.get(pk=answer.body["id"]), answer)


def player_create(
    *, name: str, club: Club | None = None, idempotency_key: str | None = None
) -> Written[Player]:
    """Add a player (to a village or club, or none: a guest). A name that only looks like one of
    the club's players (letters of another script: :func:`scoring.names.look_alike`) is refused,
    naming that player; the same name again is another person of that name, as before."""
    name = _name(name, gettext("người chơi"), MAX_PLAYER_NAME)

    def action() -> Answer:
        refuse_look_alike(name, _same_key(name, club))
        return Answer(Outcome.CREATED, player_json(Player.objects.create(name=name, club=club)))

    answer = run_once(
        key=idempotency_key,
        operation="player_create",
        target=club.pk if club else None,
        payload={"name": name},
        action=action,
    )
    return Written(Player.objects.select_related("club").get(pk=answer.body["id"]), answer)


def player_for_name(*, name: str, club: Club | None = None) -> Player:
    """Pick the one player of this name in the club (or among guests), or add one. "This name":
    the same name as people read it (:func:`scoring.names.name_key`: case and the place of the
    tone mark do not count, accents do)."""
    name = _name(name, gettext("người chơi"), MAX_PLAYER_NAME)
    found = list(Player.objects.filter(name_key=name_key(name), club=club)[:2])
    refuse_look_alike(name, [p.name for p in found])
    if len(found) == 1:
        return found[0]
    return Player.objects.create(name=name, club=club)


def _same_key(name: str, club: Club | None) -> list[str]:
    """Names of the club's players (or guests) that are ``name`` as people read it (a few)."""
    return list(Player.objects.filter(name_key=name_key(name), club=club).values_list("name", flat=True)[:20])
