"""circle changes journal

Every rename and merge of a circle, with what a merge moved and the merged circle's row as
it was, so that the operator can undo it exactly (flask --app companion circles undo ID).
No page shows it: it is no table of the change counter's (migration 0011).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27 21:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "circle_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("origin", sa.String(length=8), nullable=False),
        sa.Column("circle_id", sa.Integer(), nullable=False),
        sa.Column("circle_name", sa.String(length=40), nullable=False),
        sa.Column("circle_secret_hash", sa.String(length=64), nullable=True),
        sa.Column("circle_created_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("new_name", sa.String(length=40), nullable=False),
        sa.Column("moved", sa.JSON(), nullable=False),
        sa.Column("undone_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_circle_changes")),
    )


def downgrade():
    op.drop_table("circle_changes")
