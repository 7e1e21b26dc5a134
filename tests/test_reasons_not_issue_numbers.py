"""Comments and docstrings give the reason for the code, not the number of the issue that asked
for it: a maintainer reading the code has the code, not the tracker."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ISSUE = re.compile(r"\b[Ii]ssue \d+")


def test_no_comment_cites_an_issue_number_instead_of_a_reason() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for top in ("scoring", "tournaments", "totom_site", "templates", "static")
        for path in sorted((ROOT / top).rglob("*"))
        if path.suffix in {".py", ".js", ".html", ".css"}
        and "vendor" not in path.parts
        and "migrations" not in path.parts
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if ISSUE.search(line)
    ]
    assert found == []


def test_the_search_finds_an_issue_number() -> None:
    assert ISSUE.search("# asked first (issue 19, item 4)")
    assert not ISSUE.search("# asked first: an issue of wording")
