"""What the accessibility tests ask of a page open in Chromium: axe-core's findings (vendored, never
fetched: tests/a11y/vendor/README.md) and what a person cannot see as the page is laid out
(tests/a11y/cut_off.js). Used by the site-map walk (tests/journeys/test_accessibility.py) and the
page tests of issue 19."""

from __future__ import annotations

from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
AXE = HERE / "vendor" / "axe.min.js"
AXE_VERSION = "4.14.1"
CUT_OFF = (HERE / "cut_off.js").read_text(encoding="utf-8")

#: WCAG 2.0, 2.1 and 2.2, levels A and AA (contrast included: WCAG 1.4.3 is AA).
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
#: The impacts the issue asks to be absent.
SERIOUS = {"serious", "critical"}

_RUN = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => n.target.join(" ") + " :: " + (n.failureSummary || "").replace(/\\s+/g, " ").slice(0, 160))}));
}"""


def add_axe(context: Any) -> None:
    """Give every page of ``context`` axe-core. An init script is not subject to the site's
    Content-Security-Policy (an injected <script> would be refused, as it should be)."""
    context.add_init_script(path=str(AXE))


def axe_violations(page: Any, *, impacts: set[str] = SERIOUS) -> list[dict[str, Any]]:
    """axe-core's WCAG A/AA violations of ``impacts`` on the page as it is now."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    assert page.evaluate("axe.version") == AXE_VERSION
    return [v for v in page.evaluate(_RUN, WCAG_AA) if v["impact"] in impacts]


def describe(violations: list[dict[str, Any]]) -> str:
    return "\n".join(
        f"  {v['impact']} {v['id']}: {v['help']}\n    " + "\n    ".join(v["nodes"][:4]) for v in violations
    )


def cut_off(page: Any) -> list[str]:
    """What cannot be seen on the page at its current size: [] when nothing."""
    return list(page.evaluate(CUT_OFF))
