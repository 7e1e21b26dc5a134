"""``manage.py check --deploy`` with production settings (all from the environment) is clean."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

from tests.reliability.harness import ROOT, figure

PRODUCTION = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
    "DJANGO_ALLOWED_HOSTS": "so-tom.example",
    "DJANGO_SECURE_SSL_REDIRECT": "true",
    "DJANGO_SECURE_COOKIES": "true",
    "DJANGO_SECURE_HSTS_SECONDS": "31536000",
    "DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "DJANGO_SECURE_HSTS_PRELOAD": "true",
    "DJANGO_SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO,https",
}


def _check(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    # The suite's own DJANGO_ALLOW_ASYNC_UNSAFE (for Playwright) is never set in a deployment.
    base = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_with_production_settings_and_no_warning() -> None:
    done = _check(PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues (0 silenced)." in done.stdout + done.stderr
    figure("manage.py check --deploy (production env)", "no issues")


def test_check_deploy_flags_the_development_defaults() -> None:
    """The same check fails on the development defaults: the test above can fail."""
    done = _check({"DJANGO_DEBUG": "true"})
    output = done.stdout + done.stderr
    assert done.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016", "security.W018"):
        assert warning in output


def test_check_deploy_flags_a_weak_secret_key() -> None:
    """A key set by hand that Django knows to be weak is flagged. (A forgotten key is no longer
    possible: the install then makes its own, test_probe_deploy.py.)"""
    done = _check({**PRODUCTION, "DJANGO_SECRET_KEY": "django-insecure-" + "x" * 50})
    assert "security.W009" in done.stdout + done.stderr
