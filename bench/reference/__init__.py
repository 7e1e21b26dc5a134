"""A minimal DRF project: the reference ``bench/serving.py`` measures the app against.

What ``django-admin startproject`` gives (its middleware, sessions, auth), DRF, and two endpoints:

* ``GET /items``: one read view, one query on a small table;
* ``POST /items``: token-authenticated (DRF's ``TokenAuthentication``), it inserts one row in a
  transaction, its ``Idempotency-Key`` header stored on the row under a unique index; the same key
  again answers the first row.

It is served exactly as the app is (``bench/serving.py``): the same server, threads, front proxy
and persistent database connections, on its own database next to the app's.
"""
