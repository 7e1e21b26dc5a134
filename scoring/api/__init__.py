"""The HTTP API (DRF), mounted at /api/v1/."""
