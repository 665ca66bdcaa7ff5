"""change counter

One row that a trigger on each table the history, player and head-to-head pages are made of
moves on at every write, in the writer's transaction: one read of it tells whether a page
kept once rendered is still right, however long the history (``companion.data.change_counter``).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27 15:00:00

"""

import sqlalchemy as sa
from alembic import op

from companion.data.change_counter import NEW_EPOCH, create_statements, drop_statements

# revision identifiers, used by Alembic.
revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

#: The tables counted as of this migration (a later table gets its trigger in its own).
TABLES = (
    "players",
    "games",
    "seats",
    "rounds",
    "round_results",
    "player_changes",
    "player_totals",
    "player_colours",
    "player_round_scores",
    "player_months",
    "player_opponents",
    "player_games",
)


def upgrade():
    op.create_table(
        "change_counter",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("changes", sa.BigInteger(), nullable=False),
        sa.Column("epoch", sa.String(length=32), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_change_counter")),
    )
    dialect = op.get_bind().dialect.name
    op.execute(
        f"INSERT INTO change_counter (id, changes, epoch) VALUES (1, 0, {NEW_EPOCH[dialect]})"
    )
    for statement in create_statements(dialect, TABLES):
        op.execute(statement)


def downgrade():
    for statement in drop_statements(op.get_bind().dialect.name, TABLES):
        op.execute(statement)
    op.drop_table("change_counter")
