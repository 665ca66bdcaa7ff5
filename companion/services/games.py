"""A game's life: created, found and locked, checked against the version a phone saw,
finished, abandoned, played again, left out of the statistics, deleted, or given a new edit
key."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import sqlalchemy as sa
import sqlalchemy.orm as so

from companion.data.circles import server_circle_id
from companion.data.database import hold_write_lock
from companion.data.models import Game, Seat, db, utcnow
from companion.data.seating import check_new_game
from companion.data.states import GameStatus, RoundStatus
from companion.rules import Variant, round_leader
from companion.rules.text import N_
from companion.services.errors import NotFound, ServiceError, StaleVersion
from companion.services.idempotent_answers import forget_answers_of
from companion.services.keys import hash_edit_key, is_game_code, new_code, new_edit_key
from companion.services.players import find_or_add_players


def create_game(
    names: Sequence[str],
    variant: Variant,
    rounds: int,
    first_leader: int,
    *,
    circle_id: int | None = None,
    key: str | None = None,
) -> tuple[Game, str]:
    """A new game in the circle ``circle_id`` (by default the server's first, as on a club
    server) and its edit key (the only time the key is known in clear): ``key`` if given
    (an API answer kept for a replay makes it again from its own salt), else a new random
    one."""
    hold_write_lock()  # its new players are looked up, then added
    cleaned = check_new_game(names, variant, rounds, first_leader)
    key = key or new_edit_key()
    if circle_id is None:
        circle_id = server_circle_id()
    game = Game(
        circle_id=circle_id,
        code=new_code(),
        edit_key_hash=hash_edit_key(key),
        variant=variant,
        rounds_planned=rounds,
        first_leader=first_leader,
        status=GameStatus.IN_PROGRESS,
    )
    game.seats = [
        Seat(position=seat, player=player)
        for seat, player in enumerate(find_or_add_players(cleaned, circle_id))
    ]
    db.session.add(game)
    db.session.flush()
    return game, key


def check_game_code(code: str) -> None:
    """Refuse a code no game can have as an unknown game's, before it is looked for:
    PostgreSQL refuses a NUL byte even in a value it only compares (an error, where SQLite
    finds no game), and a control character is no code either."""
    if not is_game_code(code):
        raise NotFound(N_("There is no game with this id."))


def get_game(code: str, for_update: bool = False) -> Game:
    """The game with the public id ``code``; a write locks its row until commit."""
    query = sa.select(Game).where(Game.code == code)
    if for_update:
        hold_write_lock()
        query = query.with_for_update()
    else:
        # the circle's name, which a finished game's page and API answer show, in the same
        # statement (a row lock would take the circle's row as well: not then)
        query = query.options(so.joinedload(Game.circle, innerjoin=True))
    game: Game | None = db.session.scalar(query)
    if game is None:
        raise NotFound(N_("There is no game with this id."))
    return game


def lock_game(game: Game) -> Game:
    """Lock ``game``'s row until commit and read it afresh (another writer may have changed
    it since it was loaded). Callers check edit rights first: only a writer may make other
    writers wait."""
    game_id = game.id  # read before the lock: on SQLite taking it reads everything afresh
    hold_write_lock()
    query = sa.select(Game).where(Game.id == game_id).with_for_update()
    locked: Game | None = db.session.scalar(query.execution_options(populate_existing=True))
    if locked is None:
        raise NotFound(N_("There is no game with this id."))
    return locked


def check_version(game: Game, version: int) -> None:
    """Refuse a change based on another version than the current one."""
    if version != game.version:
        raise StaleVersion(game.version)


def check_open(game: Game) -> None:
    """A game that was abandoned takes no more rounds."""
    if game.status == GameStatus.ABANDONED:
        raise ServiceError(N_("This game was abandoned; it takes no more changes."))


def after_change(game: Game) -> None:
    """Status follows the rounds; the version grows on flush (the mapper's version column)."""
    scored = sum(1 for round_ in game.rounds if round_.status == RoundStatus.SCORED)
    if game.status != GameStatus.ABANDONED:
        game.status = (
            GameStatus.FINISHED if scored >= game.rounds_planned else GameStatus.IN_PROGRESS
        )
    game.updated_at = utcnow()  # the games row changes, so its version moves on flush
    db.session.flush()


def abandon_game(game: Game, version: int) -> None:
    """Stop a game early; its rounds stay in the history."""
    check_version(game, version)
    game.status = GameStatus.ABANDONED
    game.updated_at = utcnow()
    db.session.flush()


def delete_game(game: Game, version: int) -> None:
    """Remove a game and its rounds for good. A game it was the next game of forgets it
    (the column empties by itself, ON DELETE SET NULL), and its version moves on, so that
    its scoreboard offers to play again instead of a link to no game."""
    check_version(game, version)
    previous = db.session.scalars(sa.select(Game).where(Game.next_game_id == game.id))
    for earlier in previous:
        earlier.next_game_id = None
        earlier.updated_at = utcnow()
    db.session.delete(game)
    db.session.flush()


def play_again(game: Game, key_of: Callable[[str], str] | None = None) -> tuple[Game, str | None]:
    """The next game of the table that played ``game`` (finished or abandoned; the caller
    holds its row lock), in its circle: the same players in the same seats, the same
    variant and number of rounds, and the first leader one seat on: the seat after
    ``game``'s first leader leads the new game's first trick, as R3 passes the first lead
    from round to round.

    A table plays one next game: the first call starts it and answers it with its edit
    key (``key_of`` the new game's code, else a new random one: the web pages derive it
    from the old game's key, so every phone holding that key can be given it); every later
    call answers that game and ``None``, as long as it exists."""
    if game.status == GameStatus.IN_PROGRESS:
        raise ServiceError(N_("This game is still being played: finish or abandon it first."))
    if game.next_game_id is not None:
        started = db.session.get(Game, game.next_game_id)
        if started is not None:
            return started, None
    code = new_code()
    key = key_of(code) if key_of is not None else new_edit_key()
    players = len(game.seats)
    following = Game(
        circle_id=game.circle_id,
        code=code,
        edit_key_hash=hash_edit_key(key),
        variant=game.variant,
        rounds_planned=game.rounds_planned,
        first_leader=round_leader(2, game.first_leader, players),  # one seat on (R3)
        status=GameStatus.IN_PROGRESS,
    )
    following.seats = [Seat(position=seat.position, player=seat.player) for seat in game.seats]
    db.session.add(following)
    db.session.flush()
    game.next_game_id = following.id
    game.updated_at = utcnow()  # the games row changes, so its version moves on flush
    db.session.flush()
    return following, key


def rotate_edit_key(game: Game, version: int) -> str:
    """Replace the game's edit key and answer the new one (the only time it is known in
    clear): the old key, its edit link and every phone holding it no longer open the game.
    This is how edit rights given to the wrong phone are taken back. A version-checked
    change: the version moves on, so other phones' scoreboards refresh and drop their
    edit controls."""
    check_version(game, version)
    key = new_edit_key()
    forget_answers_of(game.edit_key_hash)  # kept for the old key, which opens nothing now
    game.edit_key_hash = hash_edit_key(key)
    game.updated_at = utcnow()
    db.session.flush()
    return key


def exclude_game(game: Game, version: int, excluded: bool) -> None:
    """Leave a game out of the statistics (played with a wrong rule), or count it again;
    it stays in the history either way. A version-checked change: the version moves on."""
    check_version(game, version)
    game.excluded = excluded
    game.updated_at = utcnow()  # the games row changes, so its version moves on flush
    db.session.flush()
