"""Each app's part of a backup, registered (as :mod:`scoring.permissions` registers grants): the
ledger (this app) writes and restores rule sets, people and sittings; an app above it adds its own
keys to a sitting's file, its own kinds of file (the tournaments app: ``event``) and restores them,
from its ``AppConfig.ready``. The ledger never imports those apps."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scoring.backup.restore import Restorer
    from scoring.models import Sitting

__all__ = ["Part", "kinds", "parts", "register_part"]


@dataclass(frozen=True, slots=True)
class Part:
    """One app's part of the backup file.

    ``kinds``: kinds of file this part writes (``backup_envelope(kind, …)``) besides ``sitting``;
    ``sitting``: the keys it adds to a sitting's own file (``{}`` for none);
    ``restore``: restores its keys of ``document`` after the sittings, in the same transaction
    (work for after the commit goes in ``restorer.after``)."""

    name: str
    kinds: tuple[str, ...] = ()
    sitting: Callable[[Sitting], dict[str, Any]] | None = None
    restore: Callable[[Mapping[str, Any], Restorer], None] | None = None


_PARTS: dict[str, Part] = {}


def register_part(part: Part) -> None:
    """Add (or replace, by name: ``ready`` may run twice) an app's part."""
    _PARTS[part.name] = part


def parts() -> list[Part]:
    return list(_PARTS.values())


def kinds() -> set[str]:
    """The kinds of file this installation restores."""
    return {"sitting"} | {k for p in _PARTS.values() for k in p.kinds}
