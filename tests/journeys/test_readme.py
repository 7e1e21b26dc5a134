"""The README names the demo account `make run` makes and the pages to open first, in both its
Vietnamese and its English part, as the demo really has them."""

from __future__ import annotations

from pathlib import Path

from scoring.services.demo import DEMO_PASSWORD, DEMO_USERNAME
from tournaments.demo import DEMO_EVENT

README = Path(__file__).resolve().parents[2] / "README.md"
PAGES = [
    f"/giai/{DEMO_EVENT['slug']}/",
    f"/giai/{DEMO_EVENT['slug']}/quan-ly/",
    "/trung-quan/1/",
    "/man-hinh/",
    "/so-diem/",
]


def test_the_readme_names_the_demo_account_and_the_five_pages_in_both_languages() -> None:
    text = README.read_text(encoding="utf-8")
    vietnamese, _, english = text.partition("# Sổ Tôm (English)")
    assert english, "the README has an English part"
    for part in (vietnamese, english):
        assert f"`{DEMO_USERNAME}`" in part and f"`{DEMO_PASSWORD}`" in part
        for path in PAGES:
            assert f"`{path}" in part, path


def test_item_3_names_the_console_not_the_list_of_tables() -> None:
    """Issue 31: item 3 called ``/trung-quan/`` (the list of tables) the console; the console of
    chiếu 1 is ``/trung-quan/1/`` (the demo's first console table)."""
    text = README.read_text(encoding="utf-8")
    items = [line for line in text.splitlines() if line.startswith("3. `/trung-quan/")]
    assert len(items) == 2, items  # Vietnamese and English
    assert all(line.startswith("3. `/trung-quan/1/`") for line in items), items
