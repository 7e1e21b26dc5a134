"""Shared plumbing for the JSON-on-stdin / JSON-on-stdout commands (score, check_hand, replay)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import translation

from scoring.engine import EngineError


class JsonCommand(BaseCommand):
    """Reads one JSON document from stdin, answers JSON on stdout; bad input exits with status 2
    and ``{"error": "<message>"}`` on stdout."""

    def answer(self, handler: Callable[[Any], Any]) -> None:
        # the CLI speaks the site's language (Vietnamese), whatever was active in the caller's thread
        with translation.override(settings.LANGUAGE_CODE):
            self._answer(handler)

    def _answer(self, handler: Callable[[Any], Any]) -> None:
        raw = sys.stdin.read()
        try:
            payload = json.loads(raw)
        except json.JSONDecodeError as exc:
            self.fail(f"JSON không hợp lệ (dòng {exc.lineno}, cột {exc.colno}): {exc.msg}.")
            return
        try:
            result = handler(payload)
        except EngineError as exc:
            self.fail(exc.message)
            return
        self.emit(result)

    def emit(self, document: Any) -> None:
        sys.stdout.write(json.dumps(document, ensure_ascii=False) + "\n")
        sys.stdout.flush()

    def fail(self, message: str) -> None:
        self.emit({"error": message})
        sys.exit(2)
