"""circles

A circle is the games and players of one table or club: a player's name is matched within
its circle only, so two tables' "Anna" can be two people. Every game and player stored
before belongs to one circle, "Club", made here with the hash of a random secret nobody
knows: the operator hands out its invite with ``flask --app companion circles invite 1``.

On SQLite the players and games tables are copied (batch mode), which drops their change
counter triggers (migration 0011): they are made again.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27 19:00:00

"""

import hashlib
import secrets
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from companion.data.change_counter import create_statements, drop_statements

# revision identifiers, used by Alembic.
revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

#: The tables that gain a circle.
MEMBERS = ("players", "games")
CIRCLES = sa.table(
    "circles",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("secret_hash", sa.String),
    sa.column("created_at", sa.DateTime(timezone=True)),
)


def unknown_secret_hash():
    """The hash of a random secret that is never shown: no invite opens the circle until
    the operator makes one."""
    return hashlib.sha256(secrets.token_urlsafe(18).encode()).hexdigest()


def recreate_triggers():
    """SQLite dropped the counting triggers of the copied tables: make them again."""
    dialect = op.get_bind().dialect.name
    if dialect != "sqlite":
        return
    for statement in [*drop_statements(dialect, MEMBERS), *create_statements(dialect, MEMBERS)]:
        op.execute(statement)


def upgrade():
    op.create_table(
        "circles",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_circles")),
    )
    connection = op.get_bind()
    connection.execute(
        CIRCLES.insert().values(
            name="Club", secret_hash=unknown_secret_hash(), created_at=datetime.now(UTC)
        )
    )
    club = connection.scalar(sa.select(sa.func.min(CIRCLES.c.id)))
    for table in MEMBERS:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("circle_id", sa.Integer(), nullable=True))
        # Only a table with rows is written: PostgreSQL's counting trigger fires even for
        # an update of no row, and a new database starts with its counter at 0.
        if connection.scalar(sa.text(f"SELECT EXISTS (SELECT 1 FROM {table})")):
            op.execute(sa.text(f"UPDATE {table} SET circle_id = :club").bindparams(club=club))

    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.alter_column("circle_id", existing_type=sa.Integer(), nullable=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_players_circle_id_circles"), "circles", ["circle_id"], ["id"]
        )
        batch_op.drop_constraint(batch_op.f("uq_players_key"), type_="unique")
        batch_op.create_unique_constraint(batch_op.f("uq_players_circle_id"), ["circle_id", "key"])
        batch_op.create_index(batch_op.f("ix_players_key"), ["key"], unique=False)
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.alter_column("circle_id", existing_type=sa.Integer(), nullable=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_games_circle_id_circles"), "circles", ["circle_id"], ["id"]
        )
        batch_op.create_index(batch_op.f("ix_games_circle_id"), ["circle_id"], unique=False)
    recreate_triggers()


def downgrade():
    # Going back is possible while every name is one circle's: with two circles holding the
    # same name, restoring the unique name fails and nothing changes.
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_circle_id"))
        batch_op.drop_constraint(batch_op.f("fk_games_circle_id_circles"), type_="foreignkey")
        batch_op.drop_column("circle_id")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_players_key"))
        batch_op.drop_constraint(batch_op.f("uq_players_circle_id"), type_="unique")
        batch_op.create_unique_constraint(batch_op.f("uq_players_key"), ["key"])
        batch_op.drop_constraint(batch_op.f("fk_players_circle_id_circles"), type_="foreignkey")
        batch_op.drop_column("circle_id")
    op.drop_table("circles")
    recreate_triggers()
