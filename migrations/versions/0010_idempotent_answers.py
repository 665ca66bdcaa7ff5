"""idempotent answers

The answer given to the first request carrying an ``Idempotency-Key``, kept so that the same
change sent again (a phone's outbox that never saw the answer) is answered as the first time
and applied once. Kept for ``IDEMPOTENCY_KEY_DAYS`` and purged as new answers are stored.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 03:30:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "idempotent_answers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("holder", sa.String(length=64), nullable=False),
        sa.Column("method", sa.String(length=8), nullable=False),
        sa.Column("path", sa.String(length=255), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("headers", sa.JSON(), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.Column("salt", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_idempotent_answers")),
        sa.UniqueConstraint(
            "key", "holder", "method", "path", name=op.f("uq_idempotent_answers_key")
        ),
    )
    with op.batch_alter_table("idempotent_answers", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_idempotent_answers_created_at"), ["created_at"], unique=False
        )


def downgrade():
    with op.batch_alter_table("idempotent_answers", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_idempotent_answers_created_at"))
    op.drop_table("idempotent_answers")
