"""Writes of the online app: platform tokens, webhooks (and their deliveries), sitting imports."""
