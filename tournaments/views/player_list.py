"""Register a whole list of players at once: pasted (one name a line, or
"name, village" / CSV lines) or uploaded (a .csv or .txt file), previewed first with the
duplicates marked (twice in the list, or already registered), then registered in one go."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.engine import N_, EngineError
from scoring.names import look_alike, name_key
from tournaments.access import organised_event
from tournaments.models import Event, Registration
from tournaments.services.events import registration_add
from tournaments.views.common import error_status, page

#: The most lines one list may hold (a festival has a few hundred players).
MAX_LINES = 500
#: The largest file accepted (bytes).
MAX_BYTES = 256 * 1024

NEW, TWICE, REGISTERED, LOOK_ALIKE = "new", "twice", "registered", "look_alike"
#: A first line that names the column rather than a player.
HEADERS = frozenset({"tên", "họ tên", "họ và tên", "tên người chơi", "name", "player"})


def _lines(request: HttpRequest) -> list[tuple[str, str]]:
    """(name, team) of each non-empty line of the uploaded file, else of the pasted text."""
    upload = request.FILES.get("file")
    if upload is not None:
        if upload.size > MAX_BYTES:
            raise EngineError(N_("Tệp quá lớn (tối đa 256 KB)."))
        raw = upload.read()
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise EngineError(N_("Tệp không đọc được: hãy lưu tệp dạng CSV UTF-8 hoặc văn bản.")) from None
    else:
        text = request.POST.get("names", "")
    rows = []
    for cells in csv.reader(io.StringIO(text)):
        name = (cells[0] if cells else "").strip()
        if not name or (not rows and name.casefold() in HEADERS):  # blank lines, a header line
            continue
        rows.append((name[:80], (cells[1].strip() if len(cells) > 1 else "")[:120]))
    if len(rows) > MAX_LINES:
        raise EngineError(N_("Danh sách dài quá: tối đa {n} người một lần."), n=MAX_LINES)
    return rows


def _preview(event: Event, rows: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Each row with its status: new, twice in the list, already registered, or only looking like
    a name registered or above it (letters of another script: ``like`` names it)."""
    taken = {
        name_key(n): n
        for n in Registration.objects.filter(event=event).values_list("player__name", flat=True)
    }
    seen: dict[str, str] = {}
    out = []
    for name, team in rows:
        key = name_key(name)
        like = taken.get(key) or seen.get(key)
        status = NEW
        if like is not None:
            status = LOOK_ALIKE if look_alike(name, like) else REGISTERED if key in taken else TWICE
        seen.setdefault(key, name)
        out.append({"name": name, "team": team, "status": status, "like": like})
    return out


@login_required
@require_POST
def register_list(request: HttpRequest, slug: str) -> HttpResponse:
    """``action=preview``: the list with its duplicates marked; ``action=save``: register the new
    names (duplicates skipped, each refusal listed), then the list as registered."""
    from tournaments.views.organiser import _manage_context

    event = organised_event(request, slug)
    error, failed, done, refused, preview = None, None, 0, [], []
    try:
        preview = _preview(event, _lines(request))
        if not preview:
            error = gettext("Danh sách trống: hãy dán mỗi dòng một tên, hoặc chọn một tệp CSV.")
    except EngineError as exc:
        error, failed = exc.message, exc
    if preview and request.POST.get("action") == "save":
        for row in preview:
            if row["status"] != NEW:
                continue
            try:
                registration_add(event=event, name=row["name"], team=row["team"], by=request.user)
                done += 1
            except EngineError as exc:
                refused.append(f"{row['name']}: {exc.message}")
        preview = []
    shown = io.StringIO()  # the previewed list as text, posted again by "register them" (a file is read once)
    csv.writer(shown, lineterminator="\n").writerows(
        [r["name"], r["team"]] if r["team"] else [r["name"]] for r in preview
    )
    context = _manage_context(
        request,
        event,
        list_preview=preview,
        list_error=error,
        list_done=done,
        list_refused=refused,
        list_text=shown.getvalue(),
        list_new=sum(1 for r in preview if r["status"] == NEW),
    )
    return page(
        request, "tournaments/manage.html", context, status=error_status(failed, invalid=error is not None)
    )
