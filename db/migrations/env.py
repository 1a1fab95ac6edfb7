"""Alembic environment: the schema is ``SQLModel.metadata`` (every table in ``db.models``).

``db.migrate`` configures Alembic in code (no alembic.ini needed, so it works from an
installed package) and hands over either an open connection (``config.attributes
["connection"]``) or a URL (``config.attributes["url"]``).
"""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import db.models  # noqa: F401  (registers the tables)
from db.engine import database_url, make_engine

config = context.config
target_metadata = SQLModel.metadata


def _configure(**kwargs: object) -> None:
    context.configure(target_metadata=target_metadata, compare_type=True, **kwargs)  # type: ignore[arg-type]  # Alembic's context is typed loosely


def run_migrations_offline() -> None:
    url = config.attributes.get("url") or database_url()
    _configure(url=url, literal_binds=True, dialect_opts={"paramstyle": "named"},
               render_as_batch=str(url).startswith("sqlite"))
    with context.begin_transaction():
        context.run_migrations()


def _run(connection: object) -> None:
    _configure(connection=connection, render_as_batch=connection.dialect.name == "sqlite")  # type: ignore[attr-defined]  # Alembic hands a Connection; its dialect is there at run time
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(config.attributes.get("url"))
    try:
        with engine.begin() as conn:
            _run(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
