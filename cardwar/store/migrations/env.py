"""Alembic environment: migrations run on a connection the store hands over.

:meth:`cardwar.store.Store.migrate` opens an async connection and calls
``command.upgrade`` inside ``run_sync``, passing the sync connection in
``config.attributes["connection"]``.
"""

from __future__ import annotations

from alembic import context

from cardwar.store.models import Base

config = context.config
target_metadata = Base.metadata

connection = config.attributes.get("connection")
if connection is None:  # pragma: no cover - offline use from the alembic CLI
    context.configure(url=config.get_main_option("sqlalchemy.url"),
                      target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()
