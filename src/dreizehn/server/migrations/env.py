"""Alembic's environment: migrations run on the connection the server hands over (``storage.migrate``), or on
``sqlalchemy.url`` when Alembic is run by hand."""

from __future__ import annotations

from alembic import context
from sqlalchemy import engine_from_config, pool

from dreizehn.server.storage import metadata

config = context.config
connection = config.attributes.get("connection")
if connection is None:
    connectable = engine_from_config(config.get_section(config.config_ini_section) or {}, prefix="sqlalchemy.",
                                     poolclass=pool.NullPool)
    with connectable.connect() as fresh:
        context.configure(connection=fresh, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
