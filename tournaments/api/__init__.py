"""The events API (``/api/v1/events…``) and the import of whole sittings (``/api/v1/sittings/import``)."""
