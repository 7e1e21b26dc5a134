"""Exceptions raised by the engine, and the messages they carry.

Two families, kept apart on purpose (see ARCHITECTURE.md, "Results explain themselves"):

* :class:`EngineError` and its subclasses are *user mistakes*: bad card codes, an unknown cước,
  an impossible rule value. Each carries a :class:`Msg`: a message *code* (the Vietnamese
  template, which is also the gettext msgid, marked with :func:`N_` so that xgettext finds it)
  and its parameters. ``exc.message`` is the text for a scorekeeper: Vietnamese, unless the app
  around the engine installed a translator (:func:`set_translator`; the Django app installs
  ``gettext``, so ``/en/`` pages and API calls with ``Accept-Language: en`` read English).
* :class:`InvariantError` is a broken invariant inside the engine (a bug). It is never caught to
  be shown as a friendly message.

A raise site reads like the message it gives::

    raise CuocError(N_("Không có cước '{slug}'.{hint}"), slug=slug, hint=hint)

Parameters are plain values (numbers, card and cước names, which stay Vietnamese in every
language: they are the game's own names), other :class:`Msg` (translated too), or lists of
either (joined with ", "). Templates are ``str.format`` templates; one without parameters is
taken literally.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

__all__ = [
    "CardError",
    "CuocError",
    "EngineError",
    "GameError",
    "HandError",
    "InvariantError",
    "Joined",
    "Msg",
    "N_",
    "RuleError",
    "SettlementError",
    "set_translator",
    "shown",
]

#: How a message template is translated (gettext); the identity when nothing is installed.
Translate = Callable[[str], str]

E = TypeVar("E", bound="EngineError")


def N_(template: str) -> str:  # noqa: N802 (the gettext_noop marker's usual name)
    """Mark a message template for the translation catalogue; returns it unchanged."""
    return template


def _same(text: str) -> str:
    return text


_translator: Translate = _same


def set_translator(translate: Translate | None) -> None:
    """Install how :attr:`EngineError.message` translates (None: back to the Vietnamese text).

    The engine never imports a translation framework: the app around it installs one at start-up.
    """
    global _translator
    _translator = translate or _same


class Msg:
    """A message: its template (code and gettext msgid, in Vietnamese) and its parameters."""

    __slots__ = ("params", "template")

    def __init__(self, template: str, /, **params: Any) -> None:
        self.template = template
        self.params: Mapping[str, Any] = params

    def render(self, translate: Translate | None = None) -> str:
        """The text, with every template (this one and the parameters') passed through ``translate``."""
        how = translate or _same
        text = how(self.template)
        if not self.params:
            return text
        return text.format_map({key: _render(value, how) for key, value in self.params.items()})

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Msg({self.template!r}, **{dict(self.params)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Msg):
            return NotImplemented
        return (self.template, dict(self.params)) == (other.template, dict(other.params))

    def __hash__(self) -> int:
        return hash(self.template)


class Joined(tuple[Any, ...]):
    """A message parameter: items (Msg or plain values) shown joined by ``sep`` (a list joins with ", ")."""

    sep: str = "; "

    def __new__(cls, items: Any, sep: str = "; ") -> Joined:
        joined = super().__new__(cls, items)
        joined.sep = sep
        return joined


def _render(value: Any, translate: Translate) -> str:
    if isinstance(value, Msg):
        return value.render(translate)
    if isinstance(value, Joined):
        return value.sep.join(_render(v, translate) for v in value)
    if isinstance(value, list | tuple):
        return ", ".join(_render(v, translate) for v in value)
    return str(value)


def shown(value: Any, limit: int = 60) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters (a client may send anything,
    and Python refuses to write an integer of more than 4300 digits)."""
    try:
        text = repr(value)
    except ValueError:
        text = f"<{value.bit_length()}-bit int>" if isinstance(value, int) else f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


class EngineError(ValueError):
    """A user mistake; :attr:`message` is the text a scorekeeper reads (see the module doc).

    :attr:`code` is a stable machine code (``snake_case``, never translated): each class sets its
    own, and a raise site may give a finer one (``code="phom_result_missing"``) where a reader (the
    ván form's wording, an API client) tells that mistake apart. The engine knows nothing of HTTP:
    the app maps each class to a status (``scoring/errors.py``).
    """

    code: str = "engine_error"

    def __init__(self, template: str | Msg, /, *, code: str | None = None, **params: Any) -> None:
        msg = template if isinstance(template, Msg) else Msg(template, **params)
        super().__init__(msg.template)
        self.msg = msg
        if code is not None:
            self.code = code

    @property
    def template(self) -> str:
        """The message template: the Vietnamese text (also its gettext msgid)."""
        return self.msg.template

    @property
    def params(self) -> Mapping[str, Any]:
        """The message's parameters."""
        return self.msg.params

    @property
    def message(self) -> str:
        """The text, translated by the installed translator (Vietnamese when none is)."""
        return self.msg.render(_translator)

    def render(self, translate: Translate | None = None) -> str:
        """The text, translated by ``translate`` (Vietnamese when None)."""
        return self.msg.render(translate)

    def within(self: E, template: str, /, **params: Any) -> E:
        """The same error (same class) whose message puts this one in context as ``{inner}``:
        ``exc.within(N_("Ván {number}: {inner}"), number=3)``."""
        cls = type(self)
        clone = cls.__new__(cls, template)  # no __init__: subclasses may take other arguments
        clone.__dict__.update(self.__dict__)
        clone.msg = Msg(template, **params, inner=self.msg)
        return clone

    def __str__(self) -> str:
        return self.message


class CardError(EngineError):
    """A card code, card name or hand string could not be read."""

    code = "bad_card"


class GameError(EngineError):
    """A game slug is unknown, or a request does not fit the game (player count...)."""

    code = "bad_game"


class RuleError(EngineError):
    """A rule set (preset slug, override key or value) is unknown or impossible."""

    code = "bad_rule"


class CuocError(EngineError):
    """A cước is unknown, or not part of the game / rule set in use."""

    code = "bad_cuoc"


class ConflictError(CuocError):
    """Cước that no hand of the game could hold together (Bạch Định with Thập Điều…)."""

    code = "cuoc_conflict"


class HandError(EngineError):
    """A hand cannot be checked as given (wrong game, wrong size for the request...)."""

    code = "bad_hand"


class SettlementError(EngineError):
    """A recorded ván cannot be settled as given (unknown player, impossible outcome...)."""

    code = "bad_van"


class InvariantError(AssertionError):
    """An engine invariant was broken: a bug, never a user mistake."""


__all__ += ["ConflictError"]
