"""A new table checked before anything is stored: its names, its rounds and who leads first.

Plain functions (standard library and ``companion.rules`` only), so that the offline rules
worker checks a game started with no network exactly as the server will when it gets it
(``companion.play_state.new_game``): the same refusals, in the same words.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.data.names import MAX_NAME_LENGTH, clean_name, name_character_problem, name_key
from companion.rules import Refusal, Variant, table_setup
from companion.rules.table import check_round_count
from companion.rules.text import N_, Message


def refused(template: str, *, field: str | None = None, **params: object) -> Refusal:
    """A refusal of the new table, said once for the pages and the API."""
    return Refusal(Message(template, params), field=field)


def check_names(names: Sequence[str], variant: Variant) -> list[str]:
    """Names in seat order: present, at most 40 characters, each player once (R2, R17), in
    the one written form of ``companion.data.names`` ("Ａｎｎ" is "Ann")."""
    cleaned = [clean_name(name) for name in names]
    table_setup(len(cleaned), variant)  # refuses the player count
    seen: set[str] = set()
    for seat, name in enumerate(cleaned):
        problem = name_character_problem(names[seat])
        if problem is not None:
            raise refused(problem)
        if not name:
            raise refused(N_("Every player needs a name."))
        if len(name) > MAX_NAME_LENGTH:
            raise refused(
                N_("A name has at most %(most)s characters: %(name)s is longer."),
                name=f"{name[:MAX_NAME_LENGTH]}…",
                most=MAX_NAME_LENGTH,
            )
        if name_key(name) in seen:
            raise refused(N_("%(name)s is entered twice: each player takes one seat."), name=name)
        seen.add(name_key(name))
    return cleaned


def check_new_game(
    names: Sequence[str], variant: Variant, rounds: int, first_leader: int
) -> list[str]:
    """The names as they will be stored, once the whole table is checked: the names (R2,
    R17), the number of rounds (R11) and the seat leading the first round (R3)."""
    cleaned = check_names(names, variant)
    check_round_count(rounds)
    if not 0 <= first_leader < len(cleaned):
        raise refused(
            N_("The first leader must be one of the %(players)s seats."),
            field="first_leader",
            players=len(cleaned),
        )
    return cleaned
