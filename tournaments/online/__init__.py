"""Online play: platform tokens, signed webhooks and sittings imported whole."""
