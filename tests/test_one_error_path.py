"""One error path: a user error's status is chosen in one place (``scoring/errors.py``, answered by
``scoring.respond``), never by the view, the API or a service that meets it.

* every user-facing error class (:class:`~scoring.engine.EngineError` and each subclass in the
  ledger and the events app) has its own status in the table and its own stable code;
* no module outside the table chooses a 4xx status: the source is read (its syntax tree, so
  comments and docstrings are not counted) for the numbers 400–499 and DRF's ``HTTP_4xx`` names;
  refusals (not signed in, not allowed, no such thing, a quota, a table's PIN) are error classes
  too (``scoring/refusals.py``); the few numbers left are Django's own handlers, reading a status,
  documentation and numbers that are not statuses, each listed below with why;
* the API and the pages answer the same error with the same status, the API's body carrying the code.
"""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
from pathlib import Path
from typing import Any

import pytest

import scoring
import tournaments
from scoring.engine import EngineError
from scoring.errors import STATUS, body_of, status_of

ROOT = Path(__file__).resolve().parents[1]

#: Where a status may be written down: the table itself, and the events app's entries in it.
TABLE = {"scoring/errors.py", "tournaments/errors.py"}

#: (module, function or <module>, status) of a 4xx that is not chosen for an error, and why. A
#: refusal (not signed in, not allowed, no such thing, a body too large, a quota, a table's PIN)
#: is an error class of ``scoring/refusals.py`` in the table like any other.
ALLOWED = {
    # Django's own handlers, answering Http404 / PermissionDenied / a request refused before any view.
    ("scoring/views/errors.py", "not_found", 404): "Django's 404 handler",
    ("scoring/views/errors.py", "permission_denied", 403): "Django's 403 handler",
    (
        "scoring/views/errors.py",
        "bad_request",
        400,
    ): "Django's 400 handler (a request refused before any view)",
    # Reading a status, not choosing one.
    ("scoring/middleware.py", "__call__", 400): "a refused answer gives its quota back",
    # Documentation: the statuses an operation lists in the OpenAPI schema.
    ("scoring/api/access.py", "_get_response_bodies", 429): "every operation may answer 429",
    ("scoring/api/ledger.py", "<module>", 400): "READ / WRITE: documented answers",
    ("scoring/api/ledger.py", "<module>", 401): "documented",
    ("scoring/api/ledger.py", "<module>", 403): "documented",
    ("scoring/api/ledger.py", "<module>", 404): "documented",
    ("scoring/api/ledger.py", "<module>", 415): "documented",
    ("scoring/api/ledger.py", "<module>", 422): "documented",
    ("tournaments/api/events.py", "<module>", 400): "READ / WRITE: documented answers",
    ("tournaments/api/events.py", "<module>", 401): "documented",
    ("tournaments/api/events.py", "<module>", 403): "documented",
    ("tournaments/api/events.py", "<module>", 404): "documented",
    ("tournaments/api/events.py", "<module>", 415): "documented",
    ("tournaments/api/events.py", "<module>", 422): "documented",
    ("tournaments/api/events.py", "<module>", 429): "documented",
    ("scoring/api/schemas.py", "answers", 409): "the 409 body's schema",
    # Numbers that are not statuses.
    ("scoring/devices.py", "<module>", 400): "a cookie's age in days",
    ("scoring/lunar.py", "_jd", 400): "the Gregorian calendar's 400-year cycle",
    ("tournaments/services/incremental.py", "<module>", 400): "a number of canh",
    ("tournaments/online/netguard.py", "check_url", 443): "the HTTPS port",
    ("tournaments/online/netguard.py", "_request", 443): "the HTTPS port",
}
#: Whole modules of documentation (the schema's status descriptions).
DOCUMENTS = {"scoring/api/schemas.py", "tournaments/api/schemas.py"}


def _sources() -> list[Path]:
    return sorted(
        path
        for app in ("scoring", "tournaments")
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts and "engine" not in path.relative_to(ROOT).parts[1:2]
    )


def _statuses(path: Path) -> list[tuple[str, int, int]]:
    """(enclosing function, status, line) of each 4xx written in ``path`` outside decorators
    (``@extend_schema(responses=…)`` documents, it does not answer)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    documenting: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            for decorator in node.decorator_list:
                documenting.update(id(n) for n in ast.walk(decorator))
    found: list[tuple[str, int, int]] = []

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            if id(child) in documenting:
                continue
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else where
            status = None
            if isinstance(child, ast.Constant) and type(child.value) is int and 400 <= child.value <= 499:
                status = child.value
            elif isinstance(child, ast.Attribute) and child.attr.startswith("HTTP_4"):
                status = int(child.attr[5:8])
            if status is not None:
                found.append((where if inner == where else inner, status, child.lineno))
            visit(child, inner)

    visit(tree, "<module>")
    return found


def test_no_status_is_chosen_for_an_error_outside_the_table() -> None:
    chosen = []
    for path in _sources():
        rel = path.relative_to(ROOT).as_posix()
        if rel in TABLE or rel in DOCUMENTS:
            continue
        for where, status, line in _statuses(path):
            if (rel, where, status) not in ALLOWED:
                chosen.append(f"{rel}:{line} ({where}): {status}")
    assert not chosen, (
        "a status chosen outside scoring/errors.py (answer through scoring.respond, or list a "
        "refusal that is not a user error in ALLOWED with why):\n" + "\n".join(chosen)
    )


def test_the_scan_finds_a_status_chosen_in_a_view(tmp_path: Path) -> None:
    """The scan above can fail: a view that picks its own status is found."""
    view = tmp_path / "view.py"
    view.write_text(
        "def save(request):\n"
        "    try:\n"
        "        write()\n"
        "    except EngineError as exc:\n"
        "        return render(request, 'x.html', {}, status=422)\n"
        "    except Conflict:\n"
        "        return Response({}, status=status.HTTP_409_CONFLICT)\n",
        encoding="utf-8",
    )
    assert [(w, s) for w, s, _ in _statuses(view)] == [("save", 422), ("save", 409)]


def _error_classes() -> set[type[EngineError]]:
    for app in (scoring, tournaments):
        for module in pkgutil.walk_packages(app.__path__, f"{app.__name__}."):
            if ".migrations" in module.name or ".management" in module.name or module.name.endswith("asgi"):
                continue
            importlib.import_module(module.name)
    found: set[type[EngineError]] = set()
    todo = [EngineError]
    while todo:
        kind = todo.pop()
        found.add(kind)
        todo.extend(kind.__subclasses__())
    return found


def test_every_error_class_has_its_own_status_and_a_unique_code() -> None:
    classes = _error_classes()
    assert len(classes) > 30  # the engine's, the ledger's and the events app's
    unlisted = sorted(f"{k.__module__}.{k.__qualname__}" for k in classes if k not in STATUS)
    assert not unlisted, "no status in scoring/errors.py (or tournaments/errors.py) for: " + ", ".join(
        unlisted
    )
    uncoded = sorted(f"{k.__module__}.{k.__qualname__}" for k in classes if "code" not in vars(k))
    assert not uncoded, "no code of its own: " + ", ".join(uncoded)
    codes: dict[str, str] = {}
    for kind in classes:
        name = f"{kind.__module__}.{kind.__qualname__}"
        assert kind.code.isidentifier() and kind.code.islower(), f"{name}: {kind.code!r} is not snake_case"
        assert kind.code not in codes, f"{name} and {codes[kind.code]} share the code {kind.code!r}"
        codes[kind.code] = name
    for status in STATUS.values():
        assert 400 <= status <= 499


@pytest.mark.sqlite
def test_a_raise_site_may_give_a_finer_code_and_the_body_carries_it() -> None:
    from scoring.engine import N_, SettlementError

    finer = SettlementError(N_("Ván {number}: {inner}"), code="den_is_winner", number=2, inner="x")
    assert (finer.code, SettlementError.code, status_of(finer)) == ("den_is_winner", "bad_van", 400)
    assert body_of(finer) == {"error": "Ván 2: x", "code": "den_is_winner"}
    # ``within`` (a message put in context) keeps the code
    assert finer.within(N_("Canh {n}: {inner}"), n=1).code == "den_is_winner"


def test_the_van_forms_wording_is_keyed_by_codes_the_engine_gives() -> None:
    """``_FORM_WORDS`` names codes, not the engine's text: each is a code an engine raise site gives
    (a code renamed in the engine, and not in the form, fails here rather than silently)."""
    from scoring.views.sitting.common import _FORM_WORDS

    given = {
        keyword.value.value
        for path in (ROOT / "scoring" / "engine").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        for keyword in node.keywords
        if keyword.arg == "code" and isinstance(keyword.value, ast.Constant)
    }
    assert set(_FORM_WORDS) <= given, sorted(set(_FORM_WORDS) - given)
    assert all(key.isidentifier() for key in _FORM_WORDS)


def test_services_answer_what_they_did_not_an_http_status() -> None:
    """A write service answers an :class:`~scoring.services.idempotency.Outcome` (created, changed,
    queued); the view or the API says it in HTTP (``scoring.respond.answer_status``)."""
    from scoring.respond import OUTCOME_STATUS
    from scoring.services.idempotency import Answer, Outcome

    numbered = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in _sources()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "Answer"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ]
    assert not numbered, "a service answering an HTTP status: " + ", ".join(numbered)
    assert set(OUTCOME_STATUS) == set(Outcome)
    assert "status" not in Answer.__dataclass_fields__


@pytest.mark.sqlite
def test_a_refusal_is_answered_by_respond_with_its_status_and_code(rf: Any) -> None:
    """Refusals (``scoring/refusals.py`` and the events app's PIN) are answered like any error: the
    JSON body's code and the table's status; on a page, the sign-in redirect (htmx: HX-Redirect)."""
    from scoring.engine import N_
    from scoring.refusals import BodyTooLarge, Missing, NotAllowed, NotSignedIn
    from scoring.respond import respond
    from scoring.services.quotas import QuotaExceeded
    from tournaments.services.tokens import PinLocked, WrongPin

    request = rf.get("/so-diem/1/bieu-do.json")
    answers = {
        kind.__name__: (answer.status_code, json.loads(answer.content)["code"])
        for kind in (NotSignedIn, NotAllowed, Missing, BodyTooLarge, WrongPin, PinLocked)
        for answer in [respond(kind(N_("Không được.")), request)]
    }
    assert answers == {
        "NotSignedIn": (401, "not_authenticated"),
        "NotAllowed": (403, "permission_denied"),
        "Missing": (404, "not_found"),
        "BodyTooLarge": (413, "too_large"),
        "WrongPin": (422, "wrong_pin"),
        "PinLocked": (429, "pin_locked"),
    }
    assert (
        respond(NotSignedIn(N_("Hãy đăng nhập trước.")), request)["WWW-Authenticate"]
        == 'Session realm="so-tom"'
    )
    quota = respond(QuotaExceeded(N_("Chờ {minutes} phút."), retry_after=90, minutes=2), request)
    assert (quota.status_code, quota["Retry-After"], json.loads(quota.content)) == (
        429,
        "90",
        {"error": "Chờ 2 phút.", "code": "over_quota"},
    )
    login = respond(NotSignedIn(N_("Hãy đăng nhập trước."), back="/so-diem/1/"), request, page=True)
    assert (login.status_code, login["Location"]) == (302, "/dang-nhap/?next=/so-diem/1/")
    htmx = rf.post("/so-diem/1/van/")
    htmx.htmx = True
    told = respond(NotSignedIn(N_("Hãy đăng nhập trước.")), htmx, page=True)
    assert (told.status_code, told["HX-Redirect"]) == (401, "/dang-nhap/?next=/so-diem/1/van/")
