"""named variant columns

Columns renamed to say what they hold, every row kept: ``games.game`` holds the variant
family ("classic" or "hat-trick") and becomes ``games.family``; ``games.colours`` is how many
colours each player marks and becomes ``games.colours_marked``; ``round_results.colours``
holds the names of the colours a seat marked and becomes ``round_results.colour_names``.
The index over the variant's columns is made again over the new names.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 15:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def rename_columns(family, colours_marked, colour_names, old):
    """Rename the three columns from the names in ``old`` to the others."""
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_variant")
        batch_op.alter_column(
            old["family"],
            new_column_name=family,
            existing_type=sa.String(length=16),
            existing_nullable=False,
        )
        batch_op.alter_column(
            old["colours_marked"],
            new_column_name=colours_marked,
            existing_type=sa.Integer(),
            existing_nullable=True,
        )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index(
            "ix_games_variant", [family, "scoring", colours_marked, "reveal"], unique=False
        )
    with op.batch_alter_table("round_results", schema=None) as batch_op:
        batch_op.alter_column(
            old["colour_names"],
            new_column_name=colour_names,
            existing_type=sa.String(length=32),
            existing_nullable=False,
        )


NEW = {"family": "family", "colours_marked": "colours_marked", "colour_names": "colour_names"}
OLD = {"family": "game", "colours_marked": "colours", "colour_names": "colours"}


def upgrade():
    rename_columns(**NEW, old=OLD)


def downgrade():
    rename_columns(**OLD, old=NEW)
