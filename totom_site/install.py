"""What one installation keeps for itself under ``var/``: its own secret key.

Without ``DJANGO_SECRET_KEY`` the app used a development key written in this repository (public,
its name said it was insecure): anyone could forge its sessions and signed values. Now an installation
makes its own key the first time it starts (``secrets``, 64 bytes, URL-safe), keeps it in
``var/secret_key`` (readable by its owner only, mode 600) and reads it back on every start, so
sessions survive a restart and every process of the install (daphne, the Celery worker) agrees.
A deployment may still set ``DJANGO_SECRET_KEY`` (or ``DJANGO_SECRET_KEY_FILE``, another path).
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

__all__ = ["install_secret_key"]


def _read(path: Path) -> str:
    return path.read_text("utf-8").strip()


def install_secret_key(path: Path) -> str:
    """The key kept at ``path``, made (atomically, mode 600) if there is none yet."""
    if path.exists():
        key = _read(path)
        if key:
            return key
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(secrets.token_urlsafe(64) + "\n")
        try:
            os.link(temporary, path)  # fails if another process made it first: theirs is kept
        except FileExistsError:
            pass
        finally:
            with contextlib.suppress(OSError):
                temporary.unlink()
        key = _read(path)
    except OSError as exc:
        raise ImproperlyConfigured(
            f"Cannot keep a secret key in {path} ({exc}): set DJANGO_SECRET_KEY, or DJANGO_SECRET_KEY_FILE to a "
            "writable path."
        ) from exc
    if not key:
        raise ImproperlyConfigured(
            f"The secret key file {path} is empty: delete it or set DJANGO_SECRET_KEY."
        )
    return key
