"""The stored game: players, games, seats, rounds and each seat's result of a round.

Scores are computed by ``companion.rules`` and stored with the round, so history and
statistics read stored numbers; a corrected round is scored again and stored again.

It is over 450 lines because every table is declared here, in sections (the game, the
statistics ledger, the journals of name changes, the change counter, the stored replies, the
rate limits): one metadata and one naming convention, which ``create_all``, the migrations'
autogenerate and the tests' fresh tables all read whole: declarations, and the few helpers
their columns need (a game's variant in its columns, the current time).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask_sqlalchemy import SQLAlchemy

from companion.data.names import MAX_NAME_LENGTH as MAX_NAME_LENGTH
from companion.data.names import name_key as name_key  # players are matched by it
from companion.data.states import GameStatus
from companion.rules import Variant, variant_from_settings, variant_named

#: The columns a game's variant is stored in (migration 0008 named them so).
VariantColumns = dict[str, str | int | None]

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(so.DeclarativeBase):
    """Named constraints, so batch migrations on SQLite can drop them."""

    metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)


def utcnow() -> datetime:
    """Timestamps are stored in UTC."""
    return datetime.now(UTC)


class Circle(db.Model):  # type: ignore[name-defined,misc]
    """The phones, games and players of one table or club (migration 0013): a name is
    matched within its circle only. Its invite secret is stored only as a hash, as a game's
    edit key is; the operator's ``circles invite`` makes a new one."""

    __tablename__ = "circles"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    name: so.Mapped[str] = so.mapped_column(sa.String(MAX_NAME_LENGTH))
    #: Indexed (0015): a program starting a game with the circle's key finds it by its hash.
    secret_hash: so.Mapped[str] = so.mapped_column(sa.String(64), index=True)
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)


class Player(db.Model):  # type: ignore[name-defined,misc]
    """Someone who plays at the table; the same person across the games of their circle."""

    __tablename__ = "players"
    __table_args__ = (
        # One player per name in a circle; its index (circle first) finds a circle's players.
        sa.UniqueConstraint("circle_id", "key"),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    circle_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("circles.id"))
    name: so.Mapped[str] = so.mapped_column(sa.String(MAX_NAME_LENGTH))
    #: Indexed on its own too: the pages still find a player by name alone (one circle).
    key: so.Mapped[str] = so.mapped_column(sa.String(4 * MAX_NAME_LENGTH), index=True)
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)

    seats: so.WriteOnlyMapped[Seat] = so.relationship(back_populates="player")


class Game(db.Model):  # type: ignore[name-defined,misc]
    """One game at a table: seats in order, the variant, the planned rounds and the rounds
    played. ``version`` grows with every change, so a phone editing an old state is told."""

    __tablename__ = "games"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    #: Indexed first in the circle's listing indexes below (migration 0017).
    circle_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("circles.id"))
    code: so.Mapped[str] = so.mapped_column(sa.String(16), unique=True)
    edit_key_hash: so.Mapped[str] = so.mapped_column(sa.String(64))
    #: The variant family, "classic" or "hat-trick"; a classic-family game also has the
    #: three settings below (RULES.md section 5), Hat Trick has none of them.
    family: so.Mapped[str] = so.mapped_column(sa.String(16))
    scoring: so.Mapped[str | None] = so.mapped_column(sa.String(16))
    #: How many colours each player marks (R4, R14).
    colours_marked: so.Mapped[int | None]
    reveal: so.Mapped[str | None] = so.mapped_column(sa.String(16))
    rounds_planned: so.Mapped[int]
    first_leader: so.Mapped[int]
    status: so.Mapped[str] = so.mapped_column(
        sa.String(16), index=True, default=GameStatus.IN_PROGRESS
    )
    created_at: so.Mapped[datetime] = so.mapped_column(
        sa.DateTime(timezone=True), default=utcnow, index=True
    )
    updated_at: so.Mapped[datetime] = so.mapped_column(
        sa.DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )
    version: so.Mapped[int] = so.mapped_column(default=1)
    #: A game played with a wrong rule stays in the history but out of the statistics.
    excluded: so.Mapped[bool] = so.mapped_column(default=False, server_default=sa.false())
    #: The game this table started after this one ("play again", migration 0009), if any.
    next_game_id: so.Mapped[int | None] = so.mapped_column(
        sa.ForeignKey("games.id", ondelete="SET NULL")
    )
    #: That game itself: a backup names it by its code, and an import links the games it
    #: adds by object, so that each row is inserted once, with its link.
    next_game: so.Mapped[Game | None] = so.relationship(
        remote_side="Game.id", foreign_keys=[next_game_id]
    )

    #: The circle the game was played in: read with the game where a page shows its name
    #: (``services.get_game``), else when first asked for.
    circle: so.Mapped[Circle] = so.relationship(viewonly=True)
    seats: so.Mapped[list[Seat]] = so.relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan"
    )
    rounds: so.Mapped[list[Round]] = so.relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )

    __mapper_args__ = {"version_id_col": version}
    __table_args__ = (
        # The history lists games in progress first, newest first, and statistics count
        # finished games (migration 0004).
        sa.Index("ix_games_status_created_at", "status", "created_at"),
        # A circle's games newest first, read a page at a time in the index's order and
        # counted (status: those in progress) without the table; a period is a range of
        # created_at; the variant filter has its own, its four columns after the circle
        # (migration 0017).
        sa.Index("ix_games_circle_id_created_at", "circle_id", "created_at", "id", "status"),
        sa.Index(
            "ix_games_circle_id_variant",
            "circle_id",
            "family",
            "scoring",
            "colours_marked",
            "reveal",
            "created_at",
            "id",
            "status",
        ),
    )

    @property
    def variant(self) -> Variant:
        """The rules' variant the game is played with, built from its columns."""
        return variant_of_columns(self.family, self.scoring, self.colours_marked, self.reveal)

    @variant.setter
    def variant(self, variant: Variant) -> None:
        for column, value in variant_columns(variant).items():
            setattr(self, column, value)


def variant_columns(variant: Variant) -> VariantColumns:
    """The column values that store ``variant``: its API shape, whose settings a Hat Trick
    game has none of (``None``). The one way from a variant to the columns."""
    shape = variant.as_json()
    return {
        "family": str(shape["game"]),
        "scoring": _optional(shape.get("scoring")),
        "colours_marked": _optional(shape.get("colours")),
        "reveal": _optional(shape.get("reveal")),
    }


def variant_of_columns(
    family: str, scoring: str | None, colours_marked: int | None, reveal: str | None
) -> Variant:
    """The variant stored in a game's columns, read from a Game or from a raw row (the
    statistics read rows without loading games). The one way back from the columns."""
    if scoring is None or colours_marked is None or reveal is None:
        return variant_named(family)
    return variant_from_settings(scoring, colours_marked, reveal)


def _optional(value: object) -> str | int | None:
    """A setting of the API shape as a column value (the shape is typed loosely)."""
    assert value is None or isinstance(value, str | int)
    return value


class Seat(db.Model):  # type: ignore[name-defined,misc]
    """A player's place at a game's table; position 0 is the first seat, clockwise (R3)."""

    __tablename__ = "seats"
    __table_args__ = (
        #: A player's games, found without reading the seats table (statistics, migration
        #: 0004).
        sa.Index("ix_seats_player_id_game_id", "player_id", "game_id"),
        #: A player's games newest first, read a page at a time in the index's order and
        #: counted (status: those in progress) without the games table; a period is a range
        #: of the game's time (migration 0018).
        sa.Index(
            "ix_seats_player_id_game_created_at",
            "player_id",
            "game_created_at",
            "game_id",
            "game_status",
        ),
    )

    game_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    position: so.Mapped[int] = so.mapped_column(primary_key=True)
    player_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("players.id"), index=True)
    #: The game's ``created_at`` and ``status``, copied and kept in step by triggers in the
    #: writer's transaction (``data.seat_copies``, migration 0018), whatever a writer gives
    #: them; read in SQL only (a loaded seat may hold an older copy).
    game_created_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))
    game_status: so.Mapped[str | None] = so.mapped_column(sa.String(16))

    game: so.Mapped[Game] = so.relationship(back_populates="seats")
    player: so.Mapped[Player] = so.relationship(back_populates="seats", lazy="joined")


class Round(db.Model):  # type: ignore[name-defined,misc]
    """One round of a game: who led, how it was entered, what was entered, and its status.

    ``entries`` keeps the table's input in the API's shape, so a correction can show it
    again and the round can be scored again by the rules; a live round also keeps its
    tricks, from which the rules rebuild who holds what.
    """

    __tablename__ = "rounds"
    __table_args__ = (
        sa.UniqueConstraint("game_id", "number"),
        #: Totals add up a game's scored rounds only (statistics, migration 0004).
        sa.Index("ix_rounds_game_id_status", "game_id", "status"),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    game_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"))
    number: so.Mapped[int]
    leader: so.Mapped[int]
    mode: so.Mapped[str] = so.mapped_column(sa.String(8))
    status: so.Mapped[str] = so.mapped_column(sa.String(8))
    entries: so.Mapped[Any] = so.mapped_column(sa.JSON)
    #: A live round's tricks in order: ``{"leader": seat, "plays": [card (+ "pass")]}``.
    tricks: so.Mapped[Any | None] = so.mapped_column(sa.JSON)
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)
    updated_at: so.Mapped[datetime] = so.mapped_column(
        sa.DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )

    game: so.Mapped[Game] = so.relationship(back_populates="rounds")
    # Loaded with the rounds in one more statement, so a scoreboard costs the same number of
    # statements whatever the number of rounds.
    results: so.Mapped[list[RoundResult]] = so.relationship(
        back_populates="round",
        order_by="RoundResult.seat",
        cascade="all, delete-orphan",
        lazy="selectin",
    )


class RoundResult(db.Model):  # type: ignore[name-defined,misc]
    """One seat's result of a scored round, the numbers statistics are made of."""

    __tablename__ = "round_results"

    round_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("rounds.id", ondelete="CASCADE"), primary_key=True
    )
    seat: so.Mapped[int] = so.mapped_column(primary_key=True)
    player_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("players.id"), index=True)
    score: so.Mapped[int]
    tricks: so.Mapped[int | None]
    #: Colour names, comma-separated ("red,blue"): the colours the seat marked, or in Hat
    #: Trick the colour that scored (R22).
    colour_names: so.Mapped[str] = so.mapped_column(sa.String(32), default="")

    round: so.Mapped[Round] = so.relationship(back_populates="results")


# --------------------------------------------------------------------------------------------
# The statistics ledger: each player's running sums, kept by companion.data.ledger on every write


class PlayerTotals(db.Model):  # type: ignore[name-defined,misc]
    """A player's sums over the games that count, so the player page reads one row instead
    of adding up a long history (migration 0005)."""

    __tablename__ = "player_totals"

    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    games: so.Mapped[int] = so.mapped_column(default=0)
    finished_games: so.Mapped[int] = so.mapped_column(default=0)
    wins: so.Mapped[int] = so.mapped_column(default=0)
    rounds: so.Mapped[int] = so.mapped_column(default=0)
    points: so.Mapped[int] = so.mapped_column(default=0)
    live_rounds: so.Mapped[int] = so.mapped_column(default=0)
    live_tricks: so.Mapped[int] = so.mapped_column(default=0)
    excluded_games: so.Mapped[int] = so.mapped_column(default=0)


class PlayerColour(db.Model):  # type: ignore[name-defined,misc]
    """How many counted rounds a colour was the player's marked colour."""

    __tablename__ = "player_colours"

    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    colour: so.Mapped[str] = so.mapped_column(sa.String(16), primary_key=True)
    rounds: so.Mapped[int] = so.mapped_column(default=0)


class PlayerRoundScore(db.Model):  # type: ignore[name-defined,misc]
    """How many counted rounds the player ended with each score: the best and the worst
    round are the ends of this short list, found through its primary key."""

    __tablename__ = "player_round_scores"

    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    score: so.Mapped[int] = so.mapped_column(primary_key=True, autoincrement=False)
    rounds: so.Mapped[int] = so.mapped_column(default=0)


class PlayerMonth(db.Model):  # type: ignore[name-defined,misc]
    """A player's sums over the counted games created in one calendar month (UTC)."""

    __tablename__ = "player_months"

    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    year: so.Mapped[int] = so.mapped_column(primary_key=True, autoincrement=False)
    month: so.Mapped[int] = so.mapped_column(primary_key=True, autoincrement=False)
    games: so.Mapped[int] = so.mapped_column(default=0)
    finished_games: so.Mapped[int] = so.mapped_column(default=0)
    wins: so.Mapped[int] = so.mapped_column(default=0)
    rounds: so.Mapped[int] = so.mapped_column(default=0)
    points: so.Mapped[int] = so.mapped_column(default=0)


class PlayerOpponent(db.Model):  # type: ignore[name-defined,misc]
    """A player against one opponent over the counted games they played together."""

    __tablename__ = "player_opponents"

    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    opponent_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    games: so.Mapped[int] = so.mapped_column(default=0)
    finished_games: so.Mapped[int] = so.mapped_column(default=0)
    wins: so.Mapped[int] = so.mapped_column(default=0)
    opponent_wins: so.Mapped[int] = so.mapped_column(default=0)


class PlayerGame(db.Model):  # type: ignore[name-defined,misc]
    """A player's total in one finished, counted game, found newest first by its index
    (the player page's score history)."""

    __tablename__ = "player_games"
    __table_args__ = (
        sa.Index("ix_player_games_player_id_created_at", "player_id", "created_at", "game_id"),
    )

    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    game_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True))
    total: so.Mapped[int]
    won: so.Mapped[bool]


# --------------------------------------------------------------------------------------------
# The journal of name changes: what a rename or merge did, so that it can be undone exactly


class PlayerChange(db.Model):  # type: ignore[name-defined,misc]
    """One rename or merge, from a page or the command line (migration 0006).

    It keeps the player row as it was (a merge deletes it) and the exact seat and result
    rows it re-pointed, so ``flask --app companion players undo`` can put them back.
    """

    __tablename__ = "player_changes"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    made_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)
    #: "rename" or "merge".
    kind: so.Mapped[str] = so.mapped_column(sa.String(8))
    #: "page" or "command".
    origin: so.Mapped[str] = so.mapped_column(sa.String(8))
    # The renamed or merged player as they were (no foreign key: a merge deletes the row).
    player_id: so.Mapped[int]
    player_name: so.Mapped[str] = so.mapped_column(sa.String(MAX_NAME_LENGTH))
    player_key: so.Mapped[str] = so.mapped_column(sa.String(4 * MAX_NAME_LENGTH))
    player_created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True))
    #: The player merged into (a merge only).
    target_id: so.Mapped[int | None]
    #: The new name (a rename), or the name of the player merged into (a merge).
    new_name: so.Mapped[str] = so.mapped_column(sa.String(MAX_NAME_LENGTH))
    #: ``{"games": [id, ...], "seats": [[game_id, position], ...],
    #: "results": [[round_id, seat], ...]}``: the games whose version moved on, and the rows
    #: a merge pointed at the target.
    moved: so.Mapped[Any] = so.mapped_column(sa.JSON)
    undone_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))


class CircleChange(db.Model):  # type: ignore[name-defined,misc]
    """One rename or merge of a circle (migration 0014), journalled as a player's is.

    A merge keeps the merged circle's row as it was (the merge deletes it, and with it the
    hash of its invite secret) and what it gave the circle merged into: its games, its
    players, and the players' journal entries of those merged with the player of the same
    name there, so ``flask --app companion circles undo`` can put everything back.
    """

    __tablename__ = "circle_changes"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    made_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)
    #: "rename" or "merge".
    kind: so.Mapped[str] = so.mapped_column(sa.String(8))
    #: "page" or "command".
    origin: so.Mapped[str] = so.mapped_column(sa.String(8))
    # The renamed or merged circle as it was (no foreign key: a merge deletes the row).
    circle_id: so.Mapped[int]
    circle_name: so.Mapped[str] = so.mapped_column(sa.String(MAX_NAME_LENGTH))
    #: The merged circle's invite secret (its hash) and creation time: a merge only.
    circle_secret_hash: so.Mapped[str | None] = so.mapped_column(sa.String(64))
    circle_created_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))
    #: The circle merged into (a merge only).
    target_id: so.Mapped[int | None]
    #: The new name (a rename), or the name of the circle merged into (a merge).
    new_name: so.Mapped[str] = so.mapped_column(sa.String(MAX_NAME_LENGTH))
    #: A merge's ``{"games": [[id, code], ...], "players": [[id, name], ...],
    #: "merges": [player_changes id, ...]}``: the games and players it moved to the target
    #: as they were, and the merges of players of one name; a rename's lists are empty.
    moved: so.Mapped[Any] = so.mapped_column(sa.JSON)
    undone_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))


# --------------------------------------------------------------------------------------------
# The change counter: moved on by a trigger at every write to a table the pages show


class ChangeCounter(db.Model):  # type: ignore[name-defined,misc]
    """One row (``id`` 1): how many writing transactions (PostgreSQL) or written rows
    (SQLite) the tables the pages are made of have seen, and a random ``epoch`` drawn when
    the row was made (``companion.data.change_counter``, migration 0011)."""

    __tablename__ = "change_counter"

    id: so.Mapped[int] = so.mapped_column(primary_key=True, autoincrement=False)
    changes: so.Mapped[int] = so.mapped_column(sa.BigInteger)
    epoch: so.Mapped[str] = so.mapped_column(sa.String(32))


# --------------------------------------------------------------------------------------------
# Answers kept for replays: a change sent again (a phone's outbox after a lost answer) is
# answered as the first time and never applied twice


#: The longest ``Idempotency-Key`` a client may send.
MAX_IDEMPOTENCY_KEY_LENGTH = 100


class IdempotentAnswer(db.Model):  # type: ignore[name-defined,misc]
    """The answer given to the first request with an ``Idempotency-Key`` (migration 0010),
    stored in the transaction of the change it answers; ``companion.web.api.idempotency``
    replays it. One per key, key holder, method and path."""

    __tablename__ = "idempotent_answers"
    __table_args__ = (
        sa.UniqueConstraint("key", "holder", "method", "path"),
        # Each holder keeps a bounded number of answers (migration 0016).
        sa.Index("ix_idempotent_answers_holder", "holder", "id"),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    key: so.Mapped[str] = so.mapped_column(sa.String(MAX_IDEMPOTENCY_KEY_LENGTH))
    #: Who sent it, the only one it is replayed to: the hash of the edit key that opened the
    #: game (as ``games.edit_key_hash``), of the circle key a new game was sent with, or of
    #: the id of the phone whose own pages sent it (``companion.web.phone_id``).
    holder: so.Mapped[str] = so.mapped_column(sa.String(64))
    method: so.Mapped[str] = so.mapped_column(sa.String(8))
    path: so.Mapped[str] = so.mapped_column(sa.String(255))
    #: SHA-256 (hex) of the query string and body: the same key with another request is refused.
    fingerprint: so.Mapped[str] = so.mapped_column(sa.String(64))
    status: so.Mapped[int]
    #: ``[[name, value], ...]``: the headers of the answer that matter (its type, caching).
    headers: so.Mapped[Any] = so.mapped_column(sa.JSON)
    #: The body as sent, but for a secret it handed out (a new game's edit key), which is
    #: never stored: a placeholder stands for it, made again from ``salt`` on a replay.
    body: so.Mapped[bytes] = so.mapped_column(sa.LargeBinary)
    salt: so.Mapped[str | None] = so.mapped_column(sa.String(32))
    created_at: so.Mapped[datetime] = so.mapped_column(
        sa.DateTime(timezone=True), default=utcnow, index=True
    )


class RateLimitHits(db.Model):  # type: ignore[name-defined,misc]
    """How many limited requests one client made in the current window of one limit
    (migration 0012): the rate limits' storage, shared by every worker and server of the
    database (companion/data/rate_limit_storage.py)."""

    __tablename__ = "rate_limit_hits"

    #: The limiter's key: the limit, its scope and the client's address.
    key: so.Mapped[str] = so.mapped_column(sa.String(255), primary_key=True)
    hits: so.Mapped[int]
    #: When the window ends, in seconds since the epoch.
    resets_at: so.Mapped[float] = so.mapped_column(sa.Float, index=True)
