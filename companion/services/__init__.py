"""The one place that turns rules results into rows and rows back into rules values.

Views and the API call these functions inside a request; each mutation checks the version
the caller based it on, scores through ``companion.rules``, and leaves committing (or
rolling back on any refusal) to the caller's single transaction.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from companion.data.models import (
    MAX_NAME_LENGTH,
    Game,
    Player,
    Round,
    RoundResult,
    Seat,
    db,
    utcnow,
)
from companion.data.names import clean_name, name_character_problem, name_key
from companion.data.queries import live_round_of, playing_round, setup_of
from companion.data.states import GameStatus, RoundMode, RoundStatus
from companion.rules import (
    Entry,
    HatTrickQuickEntry,
    QuickEntry,
    RoundScore,
    Variant,
    round_leader,
    score_round,
    table_setup,
)
from companion.rules.cards import Card
from companion.rules.checks import check_cards_named_once, check_indicators
from companion.rules.hat_trick import Play
from companion.rules.live import PlayedTrick
from companion.rules.table import check_round_count
from companion.rules.text import N_
from companion.services.errors import NotFound, ServiceError, StaleVersion

CODE_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
CODE_LENGTH = 10


def new_edit_key() -> str:
    """A secret that grants the right to change one game."""
    return secrets.token_urlsafe(18)


def hash_edit_key(key: str) -> str:
    """Only a hash of the edit key is stored: a leaked database grants no edit rights."""
    return hashlib.sha256(key.encode()).hexdigest()


def key_opens(game: Game, key: str | None) -> bool:
    """Whether ``key`` is this game's edit key (compared in constant time)."""
    return bool(key) and hmac.compare_digest(game.edit_key_hash, hash_edit_key(key or ""))


def new_code() -> str:
    """A short random public id: a read-only link is not guessable from another."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def check_name_characters(name: str) -> None:
    """Refuse a name (as typed) holding an invisible, direction-changing or control
    character (``companion.data.names``): it would look like another player's name."""
    problem = name_character_problem(name)
    if problem is not None:
        raise ServiceError(problem)


def check_names(names: Sequence[str], variant: Variant) -> list[str]:
    """Names in seat order: present, at most 40 characters, each player once (R2, R17), in
    the one written form of ``companion.data.names`` ("Ａｎｎ" is "Ann")."""
    cleaned = [clean_name(name) for name in names]
    table_setup(len(cleaned), variant)  # refuses the player count
    seen: dict[str, int] = {}
    for seat, name in enumerate(cleaned):
        check_name_characters(names[seat])
        if not name:
            raise ServiceError(N_("Every player needs a name."))
        if len(name) > MAX_NAME_LENGTH:
            raise ServiceError(
                N_("A name has at most %(most)s characters: %(name)s is longer."),
                name=f"{name[:MAX_NAME_LENGTH]}…",
                most=MAX_NAME_LENGTH,
            )
        if name_key(name) in seen:
            raise ServiceError(
                N_("%(name)s is entered twice: each player takes one seat."),
                name=name,
            )
        seen[name_key(name)] = seat
    return cleaned


def find_or_add_players(names: Sequence[str]) -> list[Player]:
    """The players called ``names`` (matched case-insensitively), new ones added. Another
    phone may add the same new name at the same moment: its row is then kept and used."""
    keys = [name_key(name) for name in names]
    known = {
        player.key: player
        for player in db.session.scalars(sa.select(Player).where(Player.key.in_(keys)))
    }
    missing = [(name, key) for name, key in zip(names, keys, strict=True) if key not in known]
    if missing:
        insert = postgresql.insert if db.engine.dialect.name == "postgresql" else sqlite.insert
        rows = [{"name": name, "key": key, "created_at": utcnow()} for name, key in missing]
        db.session.execute(
            insert(Player).values(rows).on_conflict_do_nothing(index_elements=["key"])
        )
        added = sa.select(Player).where(Player.key.in_([key for _name, key in missing]))
        known.update((player.key, player) for player in db.session.scalars(added))
    return [known[key] for key in keys]


def suggest_players(prefix: str = "", limit: int = 50) -> list[str]:
    """Known names for the new-game form, those starting with ``prefix`` first."""
    query = sa.select(Player.name).order_by(Player.name).limit(limit)
    if prefix:
        query = query.where(Player.key.startswith(name_key(prefix), autoescape=True))
    return list(db.session.scalars(query))


def create_game(
    names: Sequence[str], variant: Variant, rounds: int, first_leader: int
) -> tuple[Game, str]:
    """A new game and its edit key (the only time the key is known in clear)."""
    cleaned = check_names(names, variant)
    check_round_count(rounds)
    if not 0 <= first_leader < len(cleaned):
        raise ServiceError(
            N_("The first leader must be one of the %(players)s seats."), players=len(cleaned)
        )
    key = new_edit_key()
    game = Game(
        code=new_code(),
        edit_key_hash=hash_edit_key(key),
        variant=variant,
        rounds_planned=rounds,
        first_leader=first_leader,
        status=GameStatus.IN_PROGRESS,
    )
    game.seats = [
        Seat(position=seat, player=player)
        for seat, player in enumerate(find_or_add_players(cleaned))
    ]
    db.session.add(game)
    db.session.flush()
    return game, key


def get_game(code: str, for_update: bool = False) -> Game:
    """The game with the public id ``code``; a write locks its row until commit."""
    query = sa.select(Game).where(Game.code == code)
    if for_update:
        query = query.with_for_update()
    game: Game | None = db.session.scalar(query)
    if game is None:
        raise NotFound(N_("There is no game with this id."))
    return game


def lock_game(game: Game) -> Game:
    """Lock ``game``'s row until commit and read it afresh (another writer may have changed
    it since it was loaded). Callers check edit rights first: only a writer may make other
    writers wait."""
    query = sa.select(Game).where(Game.id == game.id).with_for_update()
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


def entry_mode(entries: Sequence[Entry]) -> RoundMode:
    """``quick`` when any seat was entered in short, ``full`` otherwise."""
    quick = any(isinstance(entry, QuickEntry | HatTrickQuickEntry) for entry in entries)
    return RoundMode.QUICK if quick else RoundMode.FULL


def _next_round(game: Game, mode: RoundMode) -> Round:
    """A new round after the last, led by the seat R3 names; refused past the planned count."""
    check_open(game)
    if playing_round(game) is not None:
        raise ServiceError(N_("A round is already being played; record it first."))
    number = len(game.rounds) + 1
    if number > game.rounds_planned:
        raise ServiceError(
            N_("All %(rounds)s rounds of this game are recorded."), rounds=game.rounds_planned
        )
    round_ = Round(
        number=number,
        leader=round_leader(number, game.first_leader, len(game.seats)),
        mode=mode,
        status=RoundStatus.PLAYING,
        entries=[],
    )
    game.rounds.append(round_)
    return round_


def mark_colours(game: Game, version: int, marked: Sequence[Sequence[Card]]) -> Round:
    """Open the next round with each seat's indicator cards (R4, R14; hidden if hazy, R15).

    The checks C1 and C2 run now, so the table learns of a wrong indicator at once.
    """
    check_version(game, version)
    round_ = _marked_round(game, marked, RoundMode.QUICK)
    _after_change(game)
    return round_


def replace_marks(game: Game, version: int, number: int, marked: Sequence[Sequence[Card]]) -> Round:
    """Put other indicator cards on round ``number``, marked but not yet played on: the
    table chose one phone's marks over another's (C1, C2 first)."""
    check_version(game, version)
    check_open(game)
    round_ = playing_round(game)
    if round_ is None or round_.number != number or round_.mode == RoundMode.LIVE:
        raise ServiceError(
            N_("The colours of round %(number)s can no longer be changed here."), number=number
        )
    _check_marks(game, marked)
    round_.entries = [{"marked": [card.as_json() for card in cards]} for cards in marked]
    _after_change(game)
    return round_


def _marked_round(game: Game, marked: Sequence[Sequence[Card]], mode: RoundMode) -> Round:
    """The next round, opened with checked indicator cards (C1, C2)."""
    _check_marks(game, marked)
    round_ = _next_round(game, mode)
    round_.entries = [{"marked": [card.as_json() for card in cards]} for cards in marked]
    return round_


def _check_marks(game: Game, marked: Sequence[Sequence[Card]]) -> None:
    """Every seat's indicator cards, each named once (C1), of its own colours (C2)."""
    setup = setup_of(game)
    if not setup.variant.colours_marked or not setup.cards_laid_out:
        raise ServiceError(N_("Colours are marked only in classic-family games that lay them out."))
    if len(marked) != setup.players:
        raise ServiceError(
            N_("Give the indicator cards of all %(players)s players."), players=setup.players
        )
    check_cards_named_once(
        [(seat, card) for seat, cards in enumerate(marked) for card in cards], setup.deck
    )
    for seat, cards in enumerate(marked):
        check_indicators(seat, cards, setup.variant.colours_marked)


def record_round(game: Game, version: int, entries: Sequence[Entry]) -> Round:
    """Score and store the next round, or the one whose colours are marked (C1-C5 first:
    nothing is stored if they fail)."""
    check_version(game, version)
    check_open(game)
    scored = score_round(setup_of(game), entries)
    round_ = playing_round(game) or _next_round(game, entry_mode(entries))
    if round_.mode == RoundMode.LIVE:
        raise ServiceError(N_("This round is being played trick by trick; finish it live."))
    round_.mode = entry_mode(entries)
    round_.status = RoundStatus.SCORED
    _store_score(game, round_, entries, scored)
    _after_change(game)
    return round_


def correct_round(game: Game, number: int, version: int, entries: Sequence[Entry]) -> Round:
    """Score a past round again from corrected entries; totals follow."""
    check_version(game, version)
    check_open(game)
    round_ = round_of(game, number)
    if round_.status != RoundStatus.SCORED:
        raise ServiceError(
            N_("Round %(number)s is not scored yet; record it instead."), number=number
        )
    scored = score_round(setup_of(game), entries)
    round_.mode = entry_mode(entries)
    round_.status = RoundStatus.SCORED
    _store_score(game, round_, entries, scored)
    _after_change(game)
    return round_


def round_of(game: Game, number: int) -> Round:
    """Round ``number`` (1-based) of ``game``."""
    if not 1 <= number <= len(game.rounds):
        raise NotFound(N_("This game has no round %(number)s."), number=number)
    return game.rounds[number - 1]


def _store_score(game: Game, round_: Round, entries: Sequence[Entry], scored: RoundScore) -> None:
    round_.entries = [entry.as_json() for entry in entries]
    old = {result.seat: result for result in round_.results}
    results = []
    for seat, (seat_score, place) in enumerate(zip(scored.seats, game.seats, strict=True)):
        result = old.get(seat) or RoundResult(seat=seat)
        result.player_id = place.player_id
        result.score = seat_score.score
        result.tricks = seat_score.tricks
        result.colour_names = ",".join(colour.value for colour in seat_score.colours)
        results.append(result)
    round_.results = results


def _after_change(game: Game) -> None:
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
    """Remove a game and its rounds for good."""
    check_version(game, version)
    db.session.delete(game)
    db.session.flush()


def rotate_edit_key(game: Game, version: int) -> str:
    """Replace the game's edit key and answer the new one (the only time it is known in
    clear): the old key, its edit link and every phone holding it no longer open the game.
    This is how edit rights given to the wrong phone are taken back. A version-checked
    change: the version moves on, so other phones' scoreboards refresh and drop their
    edit controls."""
    check_version(game, version)
    key = new_edit_key()
    game.edit_key_hash = hash_edit_key(key)
    game.updated_at = utcnow()
    db.session.flush()
    return key


# Live rounds: entered trick by trick (C6), scored by themselves after the last trick.


def _play_json(play: Play) -> dict[str, object]:
    data: dict[str, object] = play.card.as_json()
    if play.passed:
        data["pass"] = True
    return data


def open_live_round(game: Game, version: int, marked: Sequence[Sequence[Card]] | None) -> Round:
    """Start the next round to be followed trick by trick.

    Classic games that lay out indicators give them here (C1, C2); delayed and Hat Trick
    games lay out nothing. A round whose colours were already marked on the page becomes
    live without giving them again.
    """
    check_version(game, version)
    check_open(game)
    setup = setup_of(game)
    current = playing_round(game)
    if current is not None and marked is None and not current.tricks:
        current.mode = RoundMode.LIVE
        current.tricks = []
        _after_change(game)
        return current
    lays_out = setup.cards_laid_out > 0
    if lays_out and marked is None:
        raise ServiceError(
            N_("Give the indicator cards of all %(players)s players."), players=setup.players
        )
    if not lays_out and marked:
        raise ServiceError(N_("This variant lays out no indicator cards."))
    if lays_out and marked is not None:
        round_ = _marked_round(game, marked, RoundMode.LIVE)
    else:
        round_ = _next_round(game, RoundMode.LIVE)
        round_.entries = [{} for _ in range(setup.players)]
    round_.mode = RoundMode.LIVE
    round_.tricks = []
    _after_change(game)
    return round_


def live_round(game: Game, number: int) -> Round:
    """Round ``number``, which must be followed live."""
    round_ = round_of(game, number)
    if round_.mode != RoundMode.LIVE:
        raise ServiceError(N_("Round %(number)s is not played trick by trick."), number=number)
    return round_


def play_live_trick(
    game: Game, number: int, version: int, plays: Sequence[Play]
) -> tuple[PlayedTrick, Round]:
    """Record the next trick (C6); after the last one the round is scored (R10-R16, R22)."""
    check_version(game, version)
    check_open(game)
    round_ = live_round(game, number)
    if round_.status == RoundStatus.SCORED:
        raise ServiceError(
            N_("Round %(number)s is over: all its tricks are played."), number=number
        )
    live = live_round_of(game, round_)
    trick = live.play_trick(plays)
    round_.tricks = [
        *(round_.tricks or []),
        {"leader": trick.leader, "plays": [_play_json(play) for play in plays]},
    ]
    if live.is_complete:
        entries = live.entries()
        round_.status = RoundStatus.SCORED
        _store_score(game, round_, entries, score_round(setup_of(game), entries))
    _after_change(game)
    return trick, round_


def _marked_entries(round_: Round) -> list[dict[str, Any]]:
    """The indicator part of a round's stored entries (what was laid out)."""
    return [{"marked": entry["marked"]} if "marked" in entry else {} for entry in round_.entries]


def undo_live_trick(game: Game, number: int, version: int) -> Round:
    """Take back the last trick of a live round; a round scored by it is open again."""
    check_version(game, version)
    check_open(game)
    round_ = live_round(game, number)
    if not round_.tricks:
        raise ServiceError(N_("No trick has been played yet in round %(number)s."), number=number)
    if round_.status == RoundStatus.SCORED and round_ is not game.rounds[-1]:
        raise ServiceError(N_("Only the last round's last trick can be taken back."))
    round_.tricks = list(round_.tricks[:-1])
    if round_.status == RoundStatus.SCORED:
        round_.status = RoundStatus.PLAYING
        round_.entries = _marked_entries(round_)
        round_.results = []
    _after_change(game)
    return round_


def exclude_game(game: Game, version: int, excluded: bool) -> None:
    """Leave a game out of the statistics (played with a wrong rule), or count it again;
    it stays in the history either way. A version-checked change: the version moves on."""
    check_version(game, version)
    game.excluded = excluded
    game.updated_at = utcnow()  # the games row changes, so its version moves on flush
    db.session.flush()
