"""circle secret index

A program that starts a game through the API with a circle's invite key names the circle by
that key alone, and only its hash is stored: an index finds the circle by the hash without
reading the whole table, however many tables share the server.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27 23:50:00

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("circles") as batch_op:
        batch_op.create_index(batch_op.f("ix_circles_secret_hash"), ["secret_hash"], unique=False)


def downgrade():
    with op.batch_alter_table("circles") as batch_op:
        batch_op.drop_index(batch_op.f("ix_circles_secret_hash"))
