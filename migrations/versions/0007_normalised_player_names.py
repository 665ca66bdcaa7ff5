"""normalised player names

Players are now matched by their name in Unicode NFKC, without case (companion.data.names):
"Ａｎｎ" is "Ann". Names stored before were matched without NFKC, so a full-width "Ａｎｎ" was
a player of its own, whom a look-up of the new key would never find. Every stored name is
written in NFKC and its key computed the new way. Two players whose names become the same
(they never shared a game, or they would have had one key) stay two players: the one added
later is called "Ann (2)", which the operator may merge into "Ann".

The normalisation is written out here, as it was when this migration was made.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 14:00:00

"""

import unicodedata

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

MAX_NAME_LENGTH = 40
PLAYERS = sa.table("players", sa.column("id", sa.Integer), sa.column("name"), sa.column("key"))


def clean_name(name):
    return " ".join(unicodedata.normalize("NFKC", name).split())


def name_key(name):
    return unicodedata.normalize("NFKC", clean_name(name).casefold())


def old_key(name):
    return " ".join(name.split()).casefold()


def numbered(name, number):
    suffix = f" ({number})"
    return name[: MAX_NAME_LENGTH - len(suffix)].rstrip() + suffix


def new_names(players):
    """(id, name, key) of every player whose name or key changes. Players whose key stays
    as it was keep it; the others take theirs in the order they were added, numbered when
    it is taken."""
    taken = {name_key(name) for _id, name, key in players if name_key(name) == key}
    changes = []
    for player_id, name, key in players:
        cleaned, wanted = clean_name(name), name_key(name)
        if wanted == key:
            if cleaned != name:
                changes.append((player_id, cleaned, key))
            continue
        number = 1
        while wanted in taken:
            number += 1
            cleaned = numbered(clean_name(name), number)
            wanted = name_key(cleaned)
        taken.add(wanted)
        changes.append((player_id, cleaned, wanted))
    return changes


def rewrite(changes):
    """Write the new names and keys in two steps, so that no key is ever held twice on the
    way (a placeholder holds capitals, which no key does)."""
    connection = op.get_bind()
    for player_id, _name, _key in changes:
        connection.execute(
            PLAYERS.update().where(PLAYERS.c.id == player_id).values(key=f"MIGRATING {player_id}")
        )
    for player_id, name, key in changes:
        connection.execute(
            PLAYERS.update().where(PLAYERS.c.id == player_id).values(name=name, key=key)
        )


def upgrade():
    connection = op.get_bind()
    players = connection.execute(
        sa.select(PLAYERS.c.id, PLAYERS.c.name, PLAYERS.c.key).order_by(PLAYERS.c.id)
    ).all()
    rewrite(new_names([tuple(row) for row in players]))


def downgrade():
    # The names stay in NFKC (their old forms are not kept); the keys go back to the old
    # way of matching, which tells apart no two of them.
    connection = op.get_bind()
    players = connection.execute(sa.select(PLAYERS.c.id, PLAYERS.c.name, PLAYERS.c.key)).all()
    rewrite(
        [(row.id, row.name, old_key(row.name)) for row in players if old_key(row.name) != row.key]
    )
