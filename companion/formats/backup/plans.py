"""A backup read and checked, before anything is written: its games and rounds as plans."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from companion.formats.backup.export import iso_time
from companion.rules import Refusal, Variant
from companion.rules.text import Message, PlainText


class BackupError(Refusal):
    """A document that cannot be imported: malformed, or a round that does not check out.
    Its sentence is already in the words it is shown in (``PlainText``): the reasons a rule
    or a service gave were rendered when the backup was read, with the players' names."""

    def __init__(self, sentence: str):
        super().__init__(PlainText(sentence))


class GameRefusal(Refusal):
    """A value of a game that the rules have no say on but the app cannot take (a code too
    short to keep its link secret, a time it cannot show), said in the reader's language:
    ``template`` is marked with ``N_`` and rendered, as a rule's refusal is, when the game
    is named (``reading._read_game_reporting``)."""

    def __init__(self, template: str, **params: object):
        super().__init__(Message(template, params))


@dataclass
class RoundPlan:
    """A checked round, ready to be stored."""

    number: int
    leader: int
    mode: str
    status: str
    entries: list[Any]
    tricks: list[Any] | None
    scored: list[tuple[int, int | None, str]]  # (score, tricks, colours) per seat
    created_at: datetime
    updated_at: datetime
    #: The terms of each seat's score, as the rules give them (``None`` until scored).
    explanations: list[Any] | None = None

    def as_document(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "leader": self.leader,
            "mode": self.mode,
            "status": self.status,
            "entries": self.entries,
            "tricks": self.tricks,
            "scores": [score for score, _, _ in self.scored] if self.scored else None,
            "explanations": self.explanations,
            "created_at": iso_time(self.created_at),
            "updated_at": iso_time(self.updated_at),
        }


@dataclass(frozen=True)
class CirclePlan:
    """A checked circle of a version 2 document: its key there, its name and when it was
    made. The import makes it anew, with an invite secret nobody knows."""

    key: int
    name: str
    created_at: datetime


@dataclass
class GamePlan:
    """A checked game, ready to be stored."""

    code: str
    names: list[str]
    variant: Variant
    rounds_planned: int
    first_leader: int
    status: str
    excluded: bool
    created_at: datetime
    updated_at: datetime
    rounds: list[RoundPlan] = field(default_factory=list)
    #: The code of the game this table played next ("play again"), if any.
    next_game: str | None = None
    #: The key of the game's circle among the document's circles (format version 2); none
    #: in a document without circles. Not part of ``as_document``: a game already here is
    #: compared by what was played, wherever its circle.
    circle: int | None = None

    def as_document(self) -> dict[str, Any]:
        """The document this game would export as once imported (``game_document``)."""
        return {
            "code": self.code,
            "players": list(self.names),
            "variant": self.variant.as_json(),
            "rounds_planned": self.rounds_planned,
            "first_leader": self.first_leader,
            "status": self.status,
            "excluded": self.excluded,
            "next_game": self.next_game,
            "created_at": iso_time(self.created_at),
            "updated_at": iso_time(self.updated_at),
            "rounds": [round_.as_document() for round_ in self.rounds],
        }


@dataclass
class BackupPlan:
    """A checked document: its circles (``None`` when it lists none: version 1, or one
    game's download) and its games."""

    circles: list[CirclePlan] | None
    games: list[GamePlan]
