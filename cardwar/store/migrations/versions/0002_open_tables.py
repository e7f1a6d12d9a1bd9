"""games: public (listed on the open tables page) and the creator's locale

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("public", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("locale", sa.String(8), nullable=False,
                                   server_default="en"))
    op.create_index("ix_games_open", "games", ["public", "status", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_games_open", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("locale")
        batch.drop_column("public")
