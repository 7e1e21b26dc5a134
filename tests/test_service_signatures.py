"""Public service functions are keyword-only (``def f(*, sitting, record)``): a call names what it
passes, so adding or reordering a parameter cannot silently shift the others.

The functions below still take positional arguments (they predate the rule, or are helpers the ván
path calls in its loops); the list only shrinks: a new public function of a services package must
be keyword-only, and one converted leaves the list. Signal receivers (``sender`` first) are
positional by Django's contract.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

PACKAGES = (
    "scoring.services",
    "tournaments.services",
    "tournaments.console.services",
    "tournaments.online.services",
)

#: Public service functions that still take positional arguments (to be made keyword-only).
POSITIONAL = {
    # a decorator (@register_demo_part): Python passes it the function positionally
    "scoring.services.demo.register_demo_part",
    # a callback, the engine's RulesResolver (Callable[[Any], RuleSet]): the engine calls it with the spec
    "scoring.services.rules.resolve_rules",
}


def _public_functions() -> dict[str, inspect.Signature]:
    found = {}
    for package in PACKAGES:
        root = importlib.import_module(package)
        modules = [
            root,
            *(importlib.import_module(f"{package}.{m.name}") for m in pkgutil.iter_modules(root.__path__)),
        ]
        for module in modules:
            for name, obj in vars(module).items():
                if not name.startswith("_") and inspect.isfunction(obj) and obj.__module__ == module.__name__:
                    found[f"{module.__name__}.{name}"] = inspect.signature(obj)
    return found


def _positional(signature: inspect.Signature) -> bool:
    params = list(signature.parameters.values())
    if params and params[0].name == "sender":
        return False
    return any(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)


def test_public_service_functions_are_keyword_only() -> None:
    functions = _public_functions()
    assert len(functions) > 100  # the packages were found and read
    positional = {name for name, signature in functions.items() if _positional(signature)}
    assert positional - POSITIONAL == set(), "make these keyword-only: def f(*, ...)"
    assert POSITIONAL - positional == set(), "keyword-only now (or gone): take them off POSITIONAL"


def test_the_check_tells_keyword_only_from_positional() -> None:
    def positional(sitting: int, *, seq: int) -> None: ...

    def keyword_only(*, sitting: int, seq: int) -> None: ...

    def receiver(sender: object, **kwargs: object) -> None: ...

    assert _positional(inspect.signature(positional))
    assert not _positional(inspect.signature(keyword_only))
    assert not _positional(inspect.signature(receiver))
