"""rate limit hits

The count of limited requests (games started) per client address and window, kept in the
database so that every worker and server of it counts together.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27 18:10:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "rate_limit_hits",
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.Column("resets_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_rate_limit_hits")),
    )
    op.create_index(
        op.f("ix_rate_limit_hits_resets_at"), "rate_limit_hits", ["resets_at"], unique=False
    )


def downgrade():
    op.drop_index(op.f("ix_rate_limit_hits_resets_at"), table_name="rate_limit_hits")
    op.drop_table("rate_limit_hits")
