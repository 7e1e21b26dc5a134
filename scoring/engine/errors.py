"""Exceptions raised by the engine.

Two families, kept apart on purpose (see ARCHITECTURE.md, "Results explain themselves"):

* :class:`EngineError` and its subclasses are *user mistakes*: bad card codes, an unknown cước,
  an impossible rule value. Their message is Vietnamese, written for a scorekeeper, and is shown
  as is by the CLI, the API and the pages.
* :class:`InvariantError` is a broken invariant inside the engine (a bug). It is never caught to
  be shown as a friendly message.
"""

from __future__ import annotations


class EngineError(ValueError):
    """A user mistake; ``str(exc)`` is a Vietnamese message a scorekeeper understands."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class CardError(EngineError):
    """A card code, card name or hand string could not be read."""


class GameError(EngineError):
    """A game slug is unknown, or a request does not fit the game (player count...)."""


class RuleError(EngineError):
    """A rule set (preset slug, override key or value) is unknown or impossible."""


class CuocError(EngineError):
    """A cước is unknown, or not part of the game / rule set in use."""


class HandError(EngineError):
    """A hand cannot be checked as given (wrong game, wrong size for the request...)."""


class SettlementError(EngineError):
    """A recorded ván cannot be settled as given (unknown player, impossible outcome...)."""


class InvariantError(AssertionError):
    """An engine invariant was broken: a bug, never a user mistake."""
