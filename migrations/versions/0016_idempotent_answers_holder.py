"""idempotent answers by holder

Each holder of stored answers (an edit key, a circle key, a phone) keeps a bounded number of
them: storing one more deletes that holder's oldest, which an index on the holder and the id
finds without reading the whole table.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07 13:50:00

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("idempotent_answers") as batch_op:
        batch_op.create_index("ix_idempotent_answers_holder", ["holder", "id"], unique=False)


def downgrade():
    with op.batch_alter_table("idempotent_answers") as batch_op:
        batch_op.drop_index("ix_idempotent_answers_holder")
