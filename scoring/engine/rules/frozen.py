"""The frozen mapping of rule sets (kept here for the imports that name this module)."""

from scoring.engine.frozen import FrozenMap

__all__ = ["FrozenMap"]
