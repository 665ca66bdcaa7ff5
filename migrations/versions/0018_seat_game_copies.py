"""seat game copies

A player's games are listed newest first, a page at a time, and counted with those in
progress. Each seat gets a copy of its game's ``created_at`` and ``status``
(``game_created_at``, ``game_status``), kept in step by triggers in the writer's transaction
(``companion.data.seat_copies``), and the index ``ix_seats_player_id_game_created_at``
(player, game_created_at, game_id, game_status) reads a player's games in that order and
counts them without the games table, however many games the player and the circle hold.

Going back, SQLite copies the seats table to drop the columns (batch mode), which drops its
change counter triggers (migration 0011): they are made again.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07 17:00:00

"""

import sqlalchemy as sa
from alembic import op

from companion.data import change_counter, seat_copies

# revision identifiers, used by Alembic.
revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

INDEX = ["player_id", "game_created_at", "game_id", "game_status"]


def upgrade():
    op.add_column("seats", sa.Column("game_created_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("seats", sa.Column("game_status", sa.String(length=16), nullable=True))
    connection = op.get_bind()
    # Only a table with rows is written: PostgreSQL's counting trigger fires even for an
    # update of no row, and a new database starts with its counter at 0.
    if connection.scalar(sa.text("SELECT EXISTS (SELECT 1 FROM seats)")):
        op.execute(seat_copies.fill_statement())
    op.create_index("ix_seats_player_id_game_created_at", "seats", INDEX, unique=False)
    for statement in seat_copies.create_statements(connection.dialect.name):
        op.execute(statement)


def downgrade():
    dialect = op.get_bind().dialect.name
    for statement in seat_copies.drop_statements(dialect):
        op.execute(statement)
    op.drop_index("ix_seats_player_id_game_created_at", table_name="seats")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("game_status")
        batch_op.drop_column("game_created_at")
    if dialect == "sqlite":
        tables = ("seats",)
        statements = [
            *change_counter.drop_statements(dialect, tables),
            *change_counter.create_statements(dialect, tables),
        ]
        for statement in statements:
            op.execute(statement)
