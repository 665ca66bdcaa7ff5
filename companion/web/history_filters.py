"""The history's filters as GET query parameters, read the same way by the page and the API.

``player`` (a name), ``variant`` (a preset name), ``period`` (``all``, ``30d``, ``year``)
and ``from`` / ``to`` (dates, YYYY-MM-DD, both included). Every filter that is set must
hold. A value that cannot be read is reported (in English for the API, translated on the
page) and left out of the filtering, never guessed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta

from flask_babel import lazy_gettext as _l

from companion.data.history import HistoryFilter
from companion.data.models import MAX_NAME_LENGTH
from companion.data.names import clean_name
from companion.rules import PRESETS
from companion.rules.text import N_, Message

#: The periods offered, by their query value.
PERIODS = {
    "all": _l("All time"),
    "30d": _l("Last 30 days"),
    "year": _l("This year"),
}
DEFAULT_PERIOD = "all"
RECENT_DAYS = 30
#: The most digits a page number may have (a longer one is no page of any history).
MOST_PAGE_DIGITS = 6


@dataclass(frozen=True)
class FilterArgs:
    """The filters as the person typed them, to fill the form again and build page links."""

    player: str = ""
    variant: str = ""
    period: str = DEFAULT_PERIOD
    start: str = ""  # the "from" parameter
    end: str = ""  # the "to" parameter

    def query(self) -> dict[str, str]:
        """The query parameters of the filters that are set (for links to other pages)."""
        values = {
            "player": self.player,
            "variant": self.variant,
            "period": self.period if self.period != DEFAULT_PERIOD else "",
            "from": self.start,
            "to": self.end,
        }
        return {name: value for name, value in values.items() if value}

    @property
    def any_set(self) -> bool:
        """Whether any filter narrows the history."""
        return bool(self.query())


@dataclass(frozen=True)
class ReadFilters:
    """What the query string says: the typed values, the filter to apply, the problems
    (by parameter name) with the values that could not be read."""

    args: FilterArgs
    filters: HistoryFilter
    problems: dict[str, Message] = field(default_factory=dict)


def _date(raw: str) -> date | None:
    try:
        return date.fromisoformat(raw) if len(raw) == 10 else None
    except ValueError:
        return None


def read_filters(params: Mapping[str, str], now: datetime) -> ReadFilters:
    """Read the history's filters from ``params`` (``request.args``) as of ``now`` (UTC)."""
    args = FilterArgs(
        player=clean_name(params.get("player", ""))[: 4 * MAX_NAME_LENGTH],
        variant=params.get("variant", "").strip(),
        period=params.get("period", "").strip() or DEFAULT_PERIOD,
        start=params.get("from", "").strip(),
        end=params.get("to", "").strip(),
    )
    problems: dict[str, Message] = {}
    variant = None
    if args.variant:
        if args.variant in PRESETS:
            variant = args.variant
        else:
            problems["variant"] = Message(
                N_("%(name)s is not a variant; choose one of %(presets)s."),
                {"name": args.variant, "presets": ", ".join(PRESETS)},
            )
    since: datetime | None = None
    until: datetime | None = None
    if args.period == "30d":
        since = now - timedelta(days=RECENT_DAYS)
    elif args.period == "year":
        since = datetime(now.year, 1, 1, tzinfo=UTC)
    elif args.period != DEFAULT_PERIOD:
        problems["period"] = Message(
            N_("%(name)s is not a period; choose one of %(periods)s."),
            {"name": args.period, "periods": ", ".join(PERIODS)},
        )
    first = _date(args.start) if args.start else None
    last = _date(args.end) if args.end else None
    for name, raw, day in (("from", args.start, first), ("to", args.end, last)):
        if raw and day is None:
            problems[name] = Message(
                N_("%(value)s is not a date; write it as YYYY-MM-DD, for example 2025-03-14."),
                {"value": raw},
            )
    if first is not None and last is not None and first > last:
        problems["to"] = Message(N_("The end date comes before the start date."))
        first = last = None
    if first is not None:
        start = datetime.combine(first, time(), tzinfo=UTC)
        since = max(since, start) if since is not None else start
    if last is not None and last < date.max:  # the last day there is has no day after it
        until = datetime.combine(last + timedelta(days=1), time(), tzinfo=UTC)
    filters = HistoryFilter(player=args.player or None, variant=variant, since=since, until=until)
    return ReadFilters(args, filters, problems)


def read_page(raw: str | None) -> int | None:
    """The page number of the query string (1 when absent); ``None`` if it is no page
    number at all (not a whole number of at most six digits, or below 1)."""
    if raw is None:
        return 1
    if not raw.isascii() or not raw.isdigit() or len(raw) > MOST_PAGE_DIGITS:
        return None
    page = int(raw)
    return page if page >= 1 else None
