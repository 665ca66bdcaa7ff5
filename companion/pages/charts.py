"""Charts drawn on the server as inline SVG: no chart library, no script, no request.

Pure functions of their numbers and the reader's words (no database, no Flask: the phone's
rules worker draws the scoreboard's chart offline, companion/web/offline). Every chart is an
``<svg role="img">`` named by its ``<title>`` and described in words by its ``<desc>``, so a
screen reader gets the numbers too. Colours come from CSS custom properties (``--chart-1``
... in static/style.css, with dark-mode values) through ``currentColor``; without the
stylesheet the chart is drawn in the text colour. Series are told apart by colour AND dash
pattern AND marker shape, so colour-blind players can read them. A series' marker is defined
once (``<marker>``) and drawn at the points by its line, and what every line or label shares
is said once on their group, which keeps a chart of eight players over ten rounds small.
Every piece of text is escaped: a name is never markup.

The output is deterministic: the same numbers give the same SVG, element ids included (they
are derived from the content unless ``id_prefix`` is given), so two different charts on one
page never share an id.

It is a little over 400 lines: two charts and the small SVG pieces (scales, ticks, markers,
labels that never overlap) that both draw with. The pieces only make sense together, and a
chart library would be a script or a dependency where inline SVG costs neither.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence

from markupsafe import Markup, escape

from companion.rules.wording import Reader

MINUS_SIGN = "\u2212"
#: The words of a chart drawn with no reader given.
ENGLISH = Reader()


def signed_number(number: int) -> str:
    """A score with its sign always shown, and a real minus sign (U+2212), not a hyphen:
    "+3", "−7", "0"."""
    if number > 0:
        return f"+{number}"
    if number < 0:
        return f"{MINUS_SIGN}{-number}"
    return "0"


#: The drawing's width in SVG units: it is scaled to the page width (360-430 px on a phone).
WIDTH = 400
#: Room for the y-axis title and tick labels on the left, for the last x label on the right.
LEFT = 50
RIGHT = 14
TOP = 14
PLOT_HEIGHT = 180
TICK_FONT = 12
LEGEND_FONT = 13
LEGEND_ROW = 22
LEGEND_COLUMNS = 2
#: Legend names longer than this are cut (the full names are in the description).
LEGEND_NAME_CHARACTERS = 20
#: Labels under the x axis longer than this are cut.
X_LABEL_CHARACTERS = 14
#: About how wide a character of the tick font is, to thin labels that would overlap.
CHARACTER_WIDTH = 6.6
#: Beyond this many points a history line is drawn without markers.
MOST_MARKED_POINTS = 40

#: A dash pattern per series ("" is solid): told apart without colour.
DASHES = ("", "8 4", "2 4", "10 4 2 4", "14 5", "4 3", "10 3 2 3 2 3", "1 5")
#: A marker shape per series.
MARKERS = ("circle", "square", "triangle", "diamond", "triangle-down", "plus", "cross", "star")


def _number(value: float) -> str:
    """A coordinate with at most one decimal, the same text for the same number."""
    text = f"{value:.1f}"
    text = text[:-2] if text.endswith(".0") else text
    return "0" if text == "-0" else text


def _tick_label(value: int) -> str:
    """A y tick: a real minus sign, no plus sign."""
    return f"{MINUS_SIGN}{-value}" if value < 0 else str(value)


def _cut(text: str, most: int) -> str:
    """``text`` shortened to ``most`` characters with an ellipsis."""
    return text if len(text) <= most else text[: most - 1].rstrip() + "…"


def _chart_id(id_prefix: str | None, *content: object) -> str:
    """A safe element id: ``id_prefix`` cleaned, or one derived from the chart's content."""
    if id_prefix:
        cleaned = re.sub(r"[^A-Za-z0-9_-]", "-", id_prefix)
        return cleaned if cleaned[0].isalpha() else f"chart-{cleaned}"
    digest = hashlib.sha1(repr(content).encode(), usedforsecurity=False).hexdigest()
    return f"chart-{digest[:10]}"


def nice_ticks(low: int, high: int, most: int = 6) -> list[int]:
    """Round tick values (steps of 1, 2 or 5 times a power of ten) spanning ``low..high``
    and 0, at most ``most`` + 1 of them."""
    low, high = min(low, 0), max(high, 0)
    if low == high:
        high = low + 1
    magnitude = 1
    while True:
        for factor in (1, 2, 5):
            step = factor * magnitude
            first, last = math.floor(low / step), math.ceil(high / step)
            if last - first <= most:
                return [value * step for value in range(first, last + 1)]
        magnitude *= 10


class _Scale:
    """Maps a value to its y coordinate in the plot area."""

    def __init__(self, ticks: Sequence[int], top: float, height: float):
        self.low, self.high = ticks[0], ticks[-1]
        self.top, self.height = top, height

    def y(self, value: float) -> float:
        return self.top + (self.high - value) / (self.high - self.low) * self.height


def _open_svg(chart_id: str, height: float, title: str, description: str, kind: str) -> list[str]:
    return [
        f'<svg class="chart chart--{kind}" id="{chart_id}" role="img" '
        f'aria-labelledby="{chart_id}-title" aria-describedby="{chart_id}-desc" '
        f'viewBox="0 0 {WIDTH} {_number(height)}" width="100%" '
        f'preserveAspectRatio="xMidYMin meet" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-title">{escape(title)}</title>',
        f'<desc id="{chart_id}-desc">{escape(description)}</desc>',
    ]


def _y_axis(scale: _Scale, ticks: Sequence[int], left: float, right: float) -> list[str]:
    """Grid lines at each tick (one path), a stronger zero line, and the tick labels."""
    x1, x2 = _number(left), _number(right)
    grid = "".join(f"M{x1} {_number(scale.y(value))}H{x2}" for value in ticks if value != 0)
    zero = _number(scale.y(0))
    parts = [
        f'<path class="chart-grid" d="{grid}" stroke="currentColor"/>',
        f'<line class="chart-zero" x1="{x1}" y1="{zero}" x2="{x2}" y2="{zero}" '
        'stroke="currentColor" stroke-width="1.5"/>',
        f'<g class="chart-text chart-y-labels" font-size="{TICK_FONT}" text-anchor="end" '
        'fill="currentColor">',
    ]
    x = _number(left - 6)
    for value in ticks:
        y = _number(scale.y(value) + TICK_FONT * 0.35)
        parts.append(f'<text x="{x}" y="{y}">{_tick_label(value)}</text>')
    parts.append("</g>")
    return parts


def _shape(shape: str, s: float) -> str:
    """A marker of ``shape`` and size ``s`` (a circle's radius), centred on (0, 0)."""
    if shape == "circle":
        return f'<circle r="{_number(s)}"/>'
    if shape == "square":
        start, side = _number(-s * 0.9), _number(s * 1.8)
        return f'<rect x="{start}" y="{start}" width="{side}" height="{side}"/>'
    points: list[tuple[float, float]]
    if shape == "triangle":
        points = [(0, -s * 1.2), (s * 1.1, s * 0.8), (-s * 1.1, s * 0.8)]
    elif shape == "triangle-down":
        points = [(0, s * 1.2), (s * 1.1, -s * 0.8), (-s * 1.1, -s * 0.8)]
    elif shape == "diamond":
        points = [(0, -s * 1.3), (s * 1.1, 0), (0, s * 1.3), (-s * 1.1, 0)]
    elif shape == "star":
        points = []
        for corner in range(10):
            radius = s * 1.35 if corner % 2 == 0 else s * 0.6
            angle = math.pi / 5 * corner - math.pi / 2
            points.append((radius * math.cos(angle), radius * math.sin(angle)))
    else:  # plus and cross are strokes, not areas
        n = _number(s * 1.1)
        if shape == "plus":
            path = f"M-{n} 0H{n}M0 -{n}V{n}"
        else:
            path = f"M-{n} -{n}L{n} {n}M-{n} {n}L{n} -{n}"
        return f'<path d="{path}" fill="none" stroke="currentColor" stroke-width="2.5"/>'
    corners = " ".join(f"{_number(px)},{_number(py)}" for px, py in points)
    return f'<polygon points="{corners}"/>'


#: The group every line of a chart is drawn in: what all lines share, said once.
LINES = (
    '<g class="chart-lines" fill="none" stroke-width="2.5" stroke-linejoin="round" '
    'stroke-linecap="round">'
)


def _marker(marker_id: str, style: int, shape: str, size: float = 4.5) -> str:
    """A series' marker, defined once and drawn by its lines at their points
    (``marker-start``, ``-mid``, ``-end``): in the series' colour (its class sets ``color``),
    in the drawing's units; filled with that colour and not clipped to the marker's box by
    the stylesheet (``.chart marker`` in static/style.css), said once for every marker."""
    return (
        f'<marker id="{marker_id}" class="chart-series-{style + 1}" markerUnits="userSpaceOnUse">'
        f"{_shape(shape, size)}</marker>"
    )


def _series(style: int, marker_id: str, *, marked: str = "mid") -> str:
    """The group of a series' lines: their colour, dash pattern and marker (drawn at the
    points ``marked`` names: ``start``, ``mid``, ``end``), said once for all of them.
    Inside a group of ``LINES``."""
    attributes = f'class="chart-series-{style + 1}" stroke="currentColor"'
    if DASHES[style]:
        attributes += f' stroke-dasharray="{DASHES[style]}"'
    if marker_id:
        attributes += "".join(f' marker-{where}="url(#{marker_id})"' for where in marked.split())
    return f"<g {attributes}>"


def _path(points: Sequence[tuple[float, float]]) -> str:
    """The ``d`` of a line through ``points``."""
    return "".join(
        f"{'M' if i == 0 else 'L'}{_number(x)} {_number(y)}" for i, (x, y) in enumerate(points)
    )


def _thinned(count: int, label_width: float, room: float) -> list[int]:
    """Indexes of the x labels to show so that they do not overlap: evenly spaced, the
    first and the last always among them."""
    if count <= 1:
        return list(range(count))
    fitting = max(2, int(room // label_width) + 1)
    if count <= fitting:
        return list(range(count))
    step = math.ceil((count - 1) / (fitting - 1))
    shown = list(range(0, count, step))
    if shown[-1] != count - 1:
        if (count - 1 - shown[-1]) * room / (count - 1) < label_width:
            shown.pop()
        shown.append(count - 1)
    return shown


def _label_groups(labels: Sequence[str]) -> list[tuple[str, int, int]]:
    """Runs of equal neighbouring labels (several games of one evening share a date): each
    label once, with the first and last index it stands for."""
    groups: list[tuple[str, int, int]] = []
    for index, label in enumerate(labels):
        if groups and groups[-1][0] == label:
            groups[-1] = (label, groups[-1][1], index)
        else:
            groups.append((label, index, index))
    return groups


def _spaced(centres: Sequence[float], label_width: float) -> list[int]:
    """Indexes of the labels (at ``centres``, left to right) to show so that none overlap:
    the first and the last always among them."""
    if len(centres) <= 1:
        return list(range(len(centres)))
    shown = [0]
    for index in range(1, len(centres) - 1):
        if centres[index] - centres[shown[-1]] >= label_width:
            shown.append(index)
    last = len(centres) - 1
    while len(shown) > 1 and centres[last] - centres[shown[-1]] < label_width:
        shown.pop()
    if centres[last] - centres[shown[-1]] >= label_width:
        shown.append(last)
    return shown


def score_history_chart(
    points: Sequence[tuple[str, float]],
    title: str,
    description: str,
    *,
    id_prefix: str | None = None,
    reader: Reader = ENGLISH,
) -> Markup:
    """One player's values over time (e.g. the points per round of each game, oldest
    first) as a line. Each point is labelled under the x axis by its label; neighbouring
    points with the same label (games of the same day) share it, written once under them,
    and labels are thinned when there are many.

    ``description`` is the chart's text alternative (say in words what the line shows: the
    lowest, highest and last value, say); ``title`` names it. Labels are shown as text.
    """
    chart_id = _chart_id(id_prefix, "history", tuple(points), title, description)
    left, right = LEFT, WIDTH - RIGHT
    bottom = TOP + PLOT_HEIGHT
    if not points:
        height = TOP + 60
        parts = _open_svg(chart_id, height, title, description, "history")
        empty = escape(reader.gettext("No scores yet."))
        parts.append(
            f'<text class="chart-text" x="{WIDTH // 2}" y="{TOP + 30}" text-anchor="middle" '
            f'font-size="{LEGEND_FONT}" fill="currentColor">{empty}</text>'
        )
        parts.append("</svg>")
        return Markup("".join(parts))

    values = [value for _, value in points]
    ticks = nice_ticks(math.floor(min(values)), math.ceil(max(values)))
    scale = _Scale(ticks, TOP, PLOT_HEIGHT)
    count = len(points)
    inset = 10  # the first and last point keep clear of the y axis and the edge
    span = right - left - 2 * inset

    def x_of(index: int) -> float:
        return left + inset + (span * index / (count - 1) if count > 1 else span / 2)

    groups = _label_groups([_cut(label, X_LABEL_CHARACTERS) for label, _ in points])
    centres = [(x_of(first) + x_of(last)) / 2 for _, first, last in groups]
    label_width = max(len(label) for label, _, _ in groups) * CHARACTER_WIDTH + 10
    height = bottom + 28
    parts = _open_svg(chart_id, height, title, description, "history")
    parts.extend(_y_axis(scale, ticks, left, right))
    parts.append(
        f'<g class="chart-text chart-x-labels" font-size="{TICK_FONT}" text-anchor="middle" '
        'fill="currentColor">'
    )
    for index in _spaced(centres, label_width):
        label = groups[index][0]
        half = len(label) * CHARACTER_WIDTH / 2
        x = min(max(centres[index], half + 2), WIDTH - half - 2)  # kept inside the drawing
        parts.append(f'<text x="{_number(x)}" y="{bottom + 20}">{escape(label)}</text>')
    parts.append("</g>")
    coordinates = [(x_of(i), scale.y(value)) for i, value in enumerate(values)]
    if count == 1:  # a path of one point draws no marker: a line of no length does
        coordinates.append(coordinates[0])
    marker_id = ""
    if count <= MOST_MARKED_POINTS:
        marker_id = f"{chart_id}-m1"
        parts.append(f"<defs>{_marker(marker_id, 0, 'circle', 3.5)}</defs>")
    parts.append(LINES)
    parts.append(_series(0, marker_id, marked="start mid end"))
    parts.append(f'<path class="chart-line" d="{_path(coordinates)}"/>')
    parts.append("</g></g></svg>")
    return Markup("".join(parts))


def cumulative_description(
    names: Sequence[str], totals_per_round: Sequence[Sequence[int]], reader: Reader = ENGLISH
) -> str:
    """The text alternative of a cumulative chart: the totals after the last round, in words."""
    if not totals_per_round:
        return reader.gettext("No round is scored yet.")
    last = totals_per_round[-1]
    standings = ", ".join(
        f"{name} {signed_number(total)}" for name, total in zip(names, last, strict=True)
    )
    return reader.gettext("Running totals after round %(number)s: %(standings)s.") % {
        "number": len(totals_per_round),
        "standings": standings,
    }


def cumulative_chart(
    names: Sequence[str],
    totals_per_round: Sequence[Sequence[int]],
    title: str,
    *,
    id_prefix: str | None = None,
    reader: Reader = ENGLISH,
) -> Markup:
    """Each seat's running total after every round (round 0 is 0 for all), one line per
    seat with its own colour, dash pattern and marker shape, and a legend of the names.

    ``totals_per_round[r][seat]`` is ``seat``'s total after round ``r + 1``.
    """
    seats = len(names)
    rounds = len(totals_per_round)
    chart_id = _chart_id(
        id_prefix, "cumulative", tuple(names), tuple(map(tuple, totals_per_round)), title
    )
    description = cumulative_description(names, totals_per_round, reader)
    left, right = LEFT, WIDTH - RIGHT
    bottom = TOP + PLOT_HEIGHT
    legend_top = bottom + 50
    legend_rows = math.ceil(seats / LEGEND_COLUMNS)
    height = legend_top + legend_rows * LEGEND_ROW + 4
    parts = _open_svg(chart_id, height, title, description, "cumulative")

    values = [total for totals in totals_per_round for total in totals]
    ticks = nice_ticks(min(values, default=0), max(values, default=0))
    scale = _Scale(ticks, TOP, PLOT_HEIGHT)
    inset = 6
    span = right - left - inset

    def x_of(number: int) -> float:
        return left + inset + span * number / max(rounds, 1)

    styles = [seat % len(DASHES) for seat in range(seats)]
    marker_ids = {style: f"{chart_id}-m{style + 1}" for style in sorted(set(styles))}
    parts.append("<defs>")
    parts.extend(_marker(marker_ids[style], style, MARKERS[style]) for style in marker_ids)
    parts.append("</defs>")
    parts.extend(_y_axis(scale, ticks, left, right))
    parts.append(f'<path class="chart-axis" d="M{left} {TOP}V{bottom}" stroke="currentColor"/>')
    parts.append(
        f'<g class="chart-text" font-size="{TICK_FONT}" text-anchor="middle" fill="currentColor">'
    )
    parts.append('<g class="chart-x-labels">')
    for number in _thinned(rounds + 1, 3 * CHARACTER_WIDTH + 8, span):
        parts.append(f'<text x="{_number(x_of(number))}" y="{bottom + 18}">{number}</text>')
    parts.append("</g>")
    # Kept out of the f-strings below, where the message extractor would not find them.
    x_title, y_title = escape(reader.gettext("Round")), escape(reader.gettext("Points"))
    parts.append(
        f'<text class="chart-axis-title" x="{_number(left + span / 2)}" y="{bottom + 36}">'
        f"{x_title}</text>"
    )
    parts.append(
        f'<text class="chart-axis-title" '
        f'transform="translate(12 {_number(TOP + PLOT_HEIGHT / 2)}) rotate(-90)">'
        f"{y_title}</text>"
    )
    parts.append("</g>")

    # Each seat's line, and its sample in the legend: a short line with the marker halfway.
    # The series' marker is drawn at the middle points of both, and at the end of the line.
    parts.append(LINES)
    column_width = (WIDTH - left) / LEGEND_COLUMNS
    places = []
    for seat, style in enumerate(styles):
        coordinates = [(x_of(0), scale.y(0))] + [
            (x_of(number), scale.y(totals[seat]))
            for number, totals in enumerate(totals_per_round, start=1)
        ]
        row, column = divmod(seat, LEGEND_COLUMNS)
        x = left - 30 + column * (column_width + 15)
        y = legend_top + row * LEGEND_ROW
        places.append((x, y))
        end = f' marker-end="url(#{marker_ids[style]})"' if rounds else ""
        parts.append(_series(style, marker_ids[style]))
        parts.append(f'<path class="chart-line" data-seat="{seat}" d="{_path(coordinates)}"{end}/>')
        parts.append(f'<path class="chart-line" d="M{_number(x)} {_number(y)}h14h14"/>')
        parts.append("</g>")
    parts.append("</g>")
    parts.append(
        f'<g class="chart-text chart-legend" font-size="{LEGEND_FONT}" fill="currentColor">'
    )
    for name, (x, y) in zip(names, places, strict=True):
        shown = escape(_cut(name, LEGEND_NAME_CHARACTERS))
        parts.append(
            f'<text x="{_number(x + 36)}" y="{_number(y + LEGEND_FONT * 0.35)}">{shown}</text>'
        )
    parts.append("</g></svg>")
    return Markup("".join(parts))
