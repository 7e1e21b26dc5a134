"""Refusals: a request turned away before its content is looked at (not signed in, not allowed, no
such thing, a body too large, over a quota). Not a mistake in what was sent, but answered the same
way: each is an :class:`~scoring.engine.EngineError` with its status in the one table
(``scoring/errors.py``) and a stable code, raised where the refusal is decided and answered by
:func:`scoring.respond.respond` (JSON ``{"error", "code"}``, or the refusal's own page).

The codes are those DRF gives its own refusals (``not_authenticated``, ``permission_denied``,
``not_found``…), so an API client reads one vocabulary whichever layer refused.
"""

from __future__ import annotations

from typing import Any

from scoring.engine import EngineError, Msg

__all__ = ["BodyTooLarge", "NotAllowed", "Missing", "NotSignedIn", "Refusal"]


class Refusal(EngineError):
    """A request turned away (its subclasses say why); a page answers it with the refusal's own
    page (:func:`scoring.respond.respond` with ``page=True``), JSON with its body."""

    code = "refused"


class NotSignedIn(Refusal):
    """Signing in would let the request through. A page sends the visitor to the sign-in page,
    back to ``back`` afterwards (None: the page asked for); JSON answers with the message and
    ``WWW-Authenticate``."""

    code = "not_authenticated"

    def __init__(self, template: str | Msg, /, *, back: str | None = None, **params: Any) -> None:
        super().__init__(template, **params)
        self.back = back


class NotAllowed(Refusal):
    """A signed-in person who may not do this (the 403 page, or the form with the message)."""

    code = "permission_denied"


class Missing(Refusal):
    """No such thing (a sitting, a ván, an id beyond any column)."""

    code = "not_found"


class BodyTooLarge(Refusal):
    """A request body over ``settings.API_MAX_BODY_BYTES``, refused unread."""

    code = "too_large"
