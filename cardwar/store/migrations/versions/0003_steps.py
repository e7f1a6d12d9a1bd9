"""games: the column ``battles`` renamed ``steps`` (it counts cards put down in
Beggar-my-neighbour, battles only in the battle games)

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.alter_column("battles", new_column_name="steps")


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.alter_column("steps", new_column_name="battles")
