"""Models of the scoring app, one module per concern; import them from here."""

from scoring.models.rules import RuleSetSnapshot, VillageRuleSet

__all__ = ["RuleSetSnapshot", "VillageRuleSet"]
