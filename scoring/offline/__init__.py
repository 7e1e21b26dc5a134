"""Offline-first scorekeeping: the installable web app (manifest, service worker at the site
root), the sitting's "offline pack" (rules and history as JSON, so the phone can preview points
and streaks with no network) and the page shown when an uncached page is opened offline.

The ván recorded offline are kept on the phone (IndexedDB, ``static/offline/outbox.js``) and
sent, in order and exactly once, through the JSON API (``POST /api/v1/sittings/<pk>/van`` with
the ván's own ``Idempotency-Key``); nothing here writes.
"""
