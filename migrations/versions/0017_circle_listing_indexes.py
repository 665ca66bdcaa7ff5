"""circle listing indexes

A circle's history, and the API's listing of its games, read the circle's games newest
first, a page at a time, and count them (with those in progress). Two indexes that start
with the circle read them in that order and count them without the table, however many
games the circle and the server hold:

- ``ix_games_circle_id_created_at`` (circle, created_at, id, status) for every listing
  without a variant filter (a period is a range of created_at); it replaces the index of
  ``circle_id`` alone, one of its prefixes;
- ``ix_games_circle_id_variant`` (circle, the four variant columns, created_at, id, status)
  for the variant filter; it replaces ``ix_games_variant`` (migration 0004), which no
  statement uses without a circle.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07 13:30:00

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

VARIANT = ["family", "scoring", "colours_marked", "reveal"]


def upgrade():
    op.create_index(
        "ix_games_circle_id_created_at",
        "games",
        ["circle_id", "created_at", "id", "status"],
        unique=False,
    )
    op.create_index(
        "ix_games_circle_id_variant",
        "games",
        ["circle_id", *VARIANT, "created_at", "id", "status"],
        unique=False,
    )
    op.drop_index("ix_games_circle_id", table_name="games")
    op.drop_index("ix_games_variant", table_name="games")


def downgrade():
    op.create_index("ix_games_variant", "games", VARIANT, unique=False)
    op.create_index("ix_games_circle_id", "games", ["circle_id"], unique=False)
    op.drop_index("ix_games_circle_id_variant", table_name="games")
    op.drop_index("ix_games_circle_id_created_at", table_name="games")
