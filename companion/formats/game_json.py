"""The game state in the shape of the JSON API (DESIGN.md, "Games"), for the API and exports."""

from __future__ import annotations

from companion.data.models import Game, Round
from companion.data.queries import (
    live_round_of,
    marked_of,
    setup_of,
    totals_of,
    unfinished_plays,
)
from companion.data.states import RoundMode, RoundStatus
from companion.play_state.offline_game import plays_json, trick_field
from companion.read_models.explanations import round_explanations


def _live_state(game: Game, round_: Round) -> dict[str, object]:
    """How far a live round is: tricks played, who leads the next one, the tricks (each
    from its leader, R9, R21) and, while it is played, the cards of the unfinished trick, so
    that a phone can carry the round on (offline too: companion/play_state/offline_game.py)."""
    live = live_round_of(game, round_)
    playing = round_.status == RoundStatus.PLAYING
    setup = setup_of(game)
    field = trick_field(setup)
    state: dict[str, object] = {
        "tricks_played": len(live.tricks),
        "next_leader": live.leader if playing else None,
        "tricks": [
            {"leader": trick.leader, field: plays_json(setup, trick.plays)} for trick in live.tricks
        ],
    }
    if playing:
        state["trick_so_far"] = plays_json(setup, unfinished_plays(round_, live))
    return state


def round_terms(game: Game, round_: Round) -> list[dict[str, object]] | None:
    """Per seat, the terms that add up to its score in a scored round (R10, R12-R16, R22):
    ``{"score", "terms": [{"kind", "points", "count", "colour"?, "cards"?}], "choice"?}``;
    ``None`` for a round not scored."""
    explained = round_explanations(game, round_)
    return [seat.as_json() for seat in explained] if explained is not None else None


def game_settings(game: Game) -> dict[str, object]:
    """Who sits where, what is played and how far: the same in the API and in a backup."""
    return {
        "players": [seat.player.name for seat in game.seats],
        "variant": game.variant.as_json(),
        "rounds_planned": game.rounds_planned,
        "first_leader": game.first_leader,
        "status": game.status,
    }


def game_state(
    game: Game, url: str, share_url: str, bg_stats_url: str | None = None
) -> dict[str, object]:
    """The game as the API shows it (DESIGN.md, games); ``bg_stats_url`` logs a finished
    game in BG Stats (companion/formats/bg_stats.py)."""
    totals = totals_of(game)
    return {
        "id": game.code,
        **game_settings(game),
        "rounds": [
            {
                "number": round_.number,
                "leader": round_.leader,
                "mode": round_.mode,
                "status": round_.status,
                "marked": marked_of(game, round_),
                "scores": [r.score for r in round_.results]
                if round_.status == RoundStatus.SCORED
                else None,
                "explanations": round_terms(game, round_),
                **(_live_state(game, round_) if round_.mode == RoundMode.LIVE else {}),
            }
            for round_ in game.rounds
        ],
        "totals": totals.totals,
        "winners": totals.winners,
        "version": game.version,
        "url": url,
        "share_url": share_url,
        "bg_stats_url": bg_stats_url,
    }
