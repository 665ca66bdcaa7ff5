"""next game

A finished or abandoned game remembers the game its table started next ("play again"), so
that a second press, or a press on another phone, opens that game instead of starting a
second one. Empty until then, and again if that game is deleted.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 20:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("next_game_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_games_next_game_id_games"),
            "games",
            ["next_game_id"],
            ["id"],
            ondelete="SET NULL",
        )


def downgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_games_next_game_id_games"), type_="foreignkey")
        batch_op.drop_column("next_game_id")
