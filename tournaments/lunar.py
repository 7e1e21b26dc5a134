"""The Vietnamese lunar calendar now lives in :mod:`scoring.lunar` (the club book needs it too, and
``scoring`` never imports ``tournaments``); this name is kept for the event pages."""

from scoring.lunar import LunarDate, lunar_label, to_lunar

__all__ = ["LunarDate", "lunar_label", "to_lunar"]
