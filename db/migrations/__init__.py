"""Alembic migrations (``env.py``, ``versions/``); run them with ``db.migrate.upgrade``."""
