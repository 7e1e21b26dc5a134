"""The engine's messages in the reader's language: the edge where engine errors are translated.

The engine is pure Python: its errors carry a message code (the Vietnamese template, also the
gettext msgid) and parameters (:mod:`scoring.engine.errors`). The app installs Django's
``gettext`` as their translator at start-up, so ``exc.message`` reads in the language active for
the request: Vietnamese by default, English under ``/en/``, and on the API with
``Accept-Language: en`` (:class:`ApiLanguageMiddleware`). English lives in
locale/en/LC_MESSAGES/django.po like every other string of the app.

The ledger's words (a transaction's reason, a posting's why) are stored in Vietnamese, as they were
written (the ledger is append-only): :func:`reason` shows one in the active language, matching it
back to the engine's or the ledger's template (:class:`scoring.engine.Vocabulary`). Their English
is in the same catalogue under the context ``reason``. A close's label inside one ("Chốt sổ {close}")
reads in the active language too when it is the computed label of its period
(:func:`scoring.periods.stored_label_shown`); a label written otherwise stays as written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation.trans_real import get_supported_language_variant, parse_accept_lang_header

from scoring.engine import ENGINE_WORDS, Vocabulary, set_translator
from scoring.periods import stored_label_shown

__all__ = ["KIND_LABELS", "LEDGER", "WORDS", "ApiLanguageMiddleware", "install_engine_translator", "reason"]

#: The ledger's own descriptions of its transactions (the engine's are in scoring.engine.words).
LEDGER: Mapping[str, str] = MappingProxyType(
    {
        "van": "Ván {seq}",
        "van_note": "Ván {seq} ({note})",
        "opening": "Mở hội {index} trước ván {seq}",
        "opening_note": "Mở hội {index} trước ván {seq} ({note})",
        "recomputed": "tính lại sau khi sửa ván {k}",
        "correction": "Sửa ván {k}: {text}",
        "reversed": "Đảo: {why}",
        "returned": "Trả lại điểm làng và gà khi kết thúc",
        "settlement": "Thanh toán cuối canh",
        "close_returned": "Chốt sổ {close}: trả lại điểm làng và gà",
        "close": "Chốt sổ {close}",
        "close_reversed": "Đảo chốt sổ {close}: {text}",
        "close_clearing": (
            "Chốt sổ {close}: {payer} −{amount}, {payee} +{amount} trong canh này "
            "(thanh toán theo kế hoạch chốt sổ số {id})"
        ),
        "pot_return": "Trả lại {payee} {amount} điểm còn trong {pot} khi kết thúc",
    }
)

#: The labels of the kinds of transaction (scoring.models.TransactionKind), as the API shows them.
KIND_LABELS = ("Gom đầu hội", "Ván", "Đảo bút toán (sửa ván)", "Thanh toán cuối canh")

#: Every word the ledger stores for a reader: the engine's and the ledger's own.
WORDS: Vocabulary = ENGINE_WORDS + Vocabulary.of(LEDGER.values(), phrases=KIND_LABELS)

#: The gettext context of the ledger's words (a word such as "ù" reads otherwise elsewhere).
REASON_CONTEXT = "reason"

#: The placeholders of the ledger's words that hold a name the app renders in the reader's
#: language: a close's period label ("Chốt sổ {close}"), when it is the computed one.
SHOWN_NAMES: Mapping[str, Callable[[str], str]] = MappingProxyType({"close": stored_label_shown})


def _translate(msgid: str) -> str:
    return translation.pgettext(REASON_CONTEXT, msgid)


def reason(text: str) -> str:
    """A stored reason or why, in the active language (as stored when that is Vietnamese)."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    if not text or language.split("-")[0] == settings.LANGUAGE_CODE:
        return text
    return WORDS.shown(text, _translate, names=SHOWN_NAMES)


def install_engine_translator() -> None:
    """Make engine messages follow the active language (called once, when the app is ready)."""
    set_translator(translation.gettext)


def _accepted(request: HttpRequest) -> str:
    """The first language of the Accept-Language header the site speaks; Vietnamese otherwise."""
    for code, _quality in parse_accept_lang_header(request.headers.get("Accept-Language", "")):
        if code == "*":
            break
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class ApiLanguageMiddleware:
    """The API has no language prefix: it answers in the language the client asks for with
    ``Accept-Language`` (Vietnamese when it asks for none the site speaks). Pages keep their
    prefix rule (``/en/`` English, unprefixed Vietnamese) from LocaleMiddleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path_info.startswith("/api/"):
            return self.get_response(request)
        language = _accepted(request)
        request.LANGUAGE_CODE = language
        with translation.override(language):  # restored after: nothing leaks to the thread's next work
            response = self.get_response(request)
        response.headers["Content-Language"] = language
        patch_vary_headers(response, ("Accept-Language",))
        return response
