"""The inline SVG charts: structure, numbers, accessibility, escaping and dark mode."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.pages.charts import (
    DASHES,
    MARKERS,
    cumulative_chart,
    nice_ticks,
    score_history_chart,
)
from scripts.page_reader import read_page

SVG = "{http://www.w3.org/2000/svg}"
STYLE = Path(__file__).resolve().parents[2] / "static" / "style.css"
NAMES = ["Ann", "Ben", "Cleo", "Dan"]
TOTALS = [[3, -8, 12, 0], [10, -20, 5, 7], [-4, -21, 30, 15]]


def parse(markup: str) -> ET.Element:
    """The chart as XML: it must be well-formed on its own."""
    return ET.fromstring(markup)


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if name in el.get("class", "").split()]


def value_scale(root: ET.Element) -> tuple[float, float]:
    """(y of 0, units per point), read from the y tick labels and their grid positions."""
    labels = by_class(root, "chart-y-labels")[0]
    ticks = [(int(text.text.replace("\u2212", "-")), float(text.get("y"))) for text in labels]
    (v0, y0), (v1, y1) = ticks[0], ticks[-1]
    per_point = (y1 - y0) / (v1 - v0)
    return y0 - v0 * per_point, per_point


def points_of(path: ET.Element) -> list[tuple[float, float]]:
    return [
        (float(x), float(y)) for x, y in re.findall(r"[ML](-?[\d.]+) (-?[\d.]+)", path.get("d"))
    ]


def series(root: ET.Element) -> list[ET.Element]:
    """The plotted lines, one per seat (the legend draws samples too: those carry no seat)."""
    return [line for line in by_class(root, "chart-line") if line.get("data-seat") is not None]


def drawn(root: ET.Element, element: ET.Element, attribute: str) -> str | None:
    """An attribute as it applies to ``element``: its own, or the nearest group's (the
    drawing attributes of SVG are inherited)."""
    parents = {child: parent for parent in root.iter() for child in parent}
    while element is not None:
        if element.get(attribute) is not None:
            return element.get(attribute)
        element = parents.get(element)
    return None


def colour_of(root: ET.Element, element: ET.Element) -> str | None:
    """The series colour class (``chart-series-N``) of the element or its nearest group."""
    parents = {child: parent for parent in root.iter() for child in parent}
    while element is not None:
        for name in element.get("class", "").split():
            if name.startswith("chart-series-"):
                return name
        element = parents.get(element)
    return None


def marker_of(root: ET.Element, line: ET.Element, where: str = "mid") -> ET.Element:
    """The ``<marker>`` a line draws at its points (``where``: start, mid or end)."""
    reference = drawn(root, line, f"marker-{where}") or ""
    match = re.fullmatch(r"url\(#([\w-]+)\)", reference)
    assert match, f"no marker-{where} on {line.attrib}"
    [marker] = [el for el in root.iter(f"{SVG}marker") if el.get("id") == match.group(1)]
    return marker


def test_the_cumulative_chart_has_one_line_per_seat_through_the_running_totals() -> None:
    root = parse(cumulative_chart(NAMES, TOTALS, "Running totals"))
    lines = series(root)
    assert [g.get("data-seat") for g in lines] == ["0", "1", "2", "3"]
    zero, per_point = value_scale(root)
    offset = 12 * 0.35  # a tick label sits a little below its line
    for seat, path in enumerate(lines):
        points = points_of(path)
        assert len(points) == len(TOTALS) + 1  # round 0 (all at 0), then each round
        xs = [x for x, _ in points]
        assert xs == sorted(xs) and len(set(xs)) == len(xs)
        values = [(y + offset - zero) / per_point for _, y in points]
        expected = [0] + [totals[seat] for totals in TOTALS]
        assert values == pytest.approx(expected, abs=0.1)
        # a marker on every scored round (the middle points and the last), none on round 0
        assert marker_of(root, path, "mid") is marker_of(root, path, "end")
        assert drawn(root, path, "marker-start") is None


def marker_shape(marker: ET.Element) -> tuple[str, ...]:
    """What tells a marker apart: its element, its corner count or its strokes."""
    tag = marker.tag.removeprefix(SVG)
    if tag == "polygon":
        corners = marker.get("points", "").split()
        pointing_up = float(corners[0].split(",")[1]) < float(corners[1].split(",")[1])
        return (tag, str(len(corners)), str(pointing_up))
    if tag == "path":
        return (tag, "H" if "H" in marker.get("d", "") else "L")
    return (tag,)


def test_each_seat_differs_in_colour_dash_and_marker_shape() -> None:
    names = [f"P{seat}" for seat in range(8)]
    totals = [[seat * (r + 1) for seat in range(8)] for r in range(3)]
    root = parse(cumulative_chart(names, totals, "t"))
    lines = series(root)
    colours = [colour_of(root, line) for line in lines]
    assert len(set(colours)) == 8 and None not in colours
    dashes = [drawn(root, line, "stroke-dasharray") for line in lines]
    assert len(set(dashes)) == 8
    markers = [marker_of(root, line) for line in lines]
    assert len({marker_shape(marker[0]) for marker in markers}) == 8
    for colour, marker in zip(colours, markers, strict=True):  # a marker has its line's colour
        assert marker.get("class") == colour
    assert len(set(DASHES)) == len(set(MARKERS)) == 8


def test_the_chart_has_a_title_and_a_text_alternative_naming_the_totals() -> None:
    root = parse(cumulative_chart(NAMES, TOTALS, "Running totals after each round"))
    assert root.get("role") == "img"
    title = root.find(f"{SVG}title")
    desc = root.find(f"{SVG}desc")
    assert title is not None and desc is not None
    assert root.get("aria-labelledby") == title.get("id")
    assert root.get("aria-describedby") == desc.get("id")
    assert title.text == "Running totals after each round"
    assert desc.text == (
        "Running totals after round 3: Ann \u22124, Ben \u221221, Cleo +30, Dan +15."
    )
    assert root.get("viewBox", "").startswith("0 0 400 ")
    assert root.get("width") == "100%"


def test_the_legend_names_every_player_and_the_axes_are_labelled() -> None:
    root = parse(cumulative_chart(NAMES, TOTALS, "t"))
    [legend] = by_class(root, "chart-legend")
    assert [t.text for t in legend.iter(f"{SVG}text")] == NAMES
    titles = [t.text for t in by_class(root, "chart-axis-title")]
    assert titles == ["Round", "Points"]
    [x_labels] = by_class(root, "chart-x-labels")
    assert [t.text for t in x_labels] == ["0", "1", "2", "3"]
    [zero] = by_class(root, "chart-zero")
    assert zero.tag == f"{SVG}line"


@pytest.mark.parametrize("name", ['<script>alert("x")</script>', 'Ann "the hand" & co', "</svg>"])
def test_names_are_shown_as_text_never_as_markup(name: str) -> None:
    markup = str(cumulative_chart([name, "Ben", "Cleo"], [[1, 2, -3]], f"{name}'s game"))
    assert "<script>" not in markup
    assert markup.count("</svg>") == 1 and markup.endswith("</svg>")
    root = parse(markup)  # still well-formed: the name did not open or close an element
    legend = [t.text for t in by_class(root, "chart-legend")[0].iter(f"{SVG}text")]
    assert legend[0] == (name if len(name) <= 20 else name[:19].rstrip() + "…")
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == f"{name}'s game"
    desc = root.find(f"{SVG}desc")
    assert desc is not None and name in (desc.text or "")
    history = str(score_history_chart([(name, 3), ("b", 4)], name, name))
    assert "<script>" not in history and history.count("</svg>") == 1
    root = parse(history)
    label = by_class(root, "chart-x-labels")[0][0].text
    assert label == (name if len(name) <= 14 else name[:13].rstrip() + "…")


def test_long_names_are_cut_in_the_legend_but_whole_in_the_description() -> None:
    long = "Maximilian Alexander von Hohenberg"
    root = parse(cumulative_chart([long, "Ben", "Cleo"], [[1, 2, -3]], "t"))
    legend = [t.text for t in by_class(root, "chart-legend")[0].iter(f"{SVG}text")]
    assert legend[0] is not None and legend[0].endswith("…") and len(legend[0]) <= 20
    desc = root.find(f"{SVG}desc")
    assert desc is not None and long in (desc.text or "")


def ids_of(markup: str) -> list[str]:
    """Every id the markup gives an element, in order."""
    return [str(element.get("id")) for element in read_page(markup).find_all(id=True)]


def test_two_charts_on_one_page_never_share_an_id() -> None:
    page = (
        str(cumulative_chart(NAMES, TOTALS, "a"))
        + str(cumulative_chart(NAMES, TOTALS[:2], "a"))
        + str(score_history_chart([("1", 3), ("2", 5)], "h", "d"))
        + str(score_history_chart([("1", 3), ("2", 6)], "h", "d"))
        + str(cumulative_chart(NAMES, TOTALS, "a", id_prefix="totals"))
        + str(cumulative_chart(NAMES, TOTALS, "a", id_prefix="<bad id>"))
    )
    ids = ids_of(page)
    assert len(ids) == len(set(ids))
    assert len(read_page(page).find_all("title", id=True)) == 6
    assert 'aria-labelledby="totals-title"' in page
    assert all(re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", i) for i in ids)


def test_the_output_is_deterministic() -> None:
    assert cumulative_chart(NAMES, TOTALS, "t") == cumulative_chart(NAMES, TOTALS, "t")
    points = [(f"G{i}", i * 3 - 20) for i in range(12)]
    assert score_history_chart(points, "t", "d") == score_history_chart(points, "t", "d")


def test_a_history_chart_draws_one_line_through_its_points() -> None:
    points = [("12 May", 14), ("19 May", -6), ("2 Jun", 31), ("9 Jun", 0)]
    root = parse(score_history_chart(points, "Ann's totals", "Lowest −6, highest +31, last 0."))
    assert root.get("role") == "img"
    desc = root.find(f"{SVG}desc")
    assert desc is not None and desc.text == "Lowest −6, highest +31, last 0."
    [path] = by_class(root, "chart-line")
    assert marker_of(root, path, "start") is marker_of(root, path, "mid")  # every point marked
    zero, per_point = value_scale(root)
    values = [(y + 12 * 0.35 - zero) / per_point for _, y in points_of(path)]
    assert values == pytest.approx([14, -6, 31, 0], abs=0.1)
    assert [t.text for t in by_class(root, "chart-x-labels")[0]] == [p for p, _ in points]


def test_many_history_labels_are_thinned_so_they_do_not_overlap() -> None:
    points = [(f"2024-{m:02}-{d:02}", (d * 7) % 23 - 11) for m in range(1, 7) for d in (1, 15)]
    points *= 5  # 60 points
    root = parse(score_history_chart(points, "t", "d"))
    labels = list(by_class(root, "chart-x-labels")[0])
    assert 2 <= len(labels) < len(points)
    xs = [float(label.get("x")) for label in labels]
    assert all(b - a >= 10 * 6.6 for a, b in zip(xs, xs[1:], strict=False))
    [path] = by_class(root, "chart-line")
    assert not root.findall(f".//{SVG}marker")  # no markers on a crowded line
    assert drawn(root, path, "marker-start") is drawn(root, path, "marker-mid") is None
    first, last = labels[0], labels[-1]
    assert (first.text, last.text) == (points[0][0], points[-1][0])


def test_a_history_chart_of_one_point_and_of_none() -> None:
    one = parse(score_history_chart([("Game 1", 5)], "t", "d"))
    [line] = by_class(one, "chart-line")
    assert len(set(points_of(line))) == 1  # a line of no length, so that its marker shows
    assert marker_of(one, line, "start").get("id")
    none = parse(score_history_chart([], "t", "No games yet."))
    assert not by_class(none, "chart-line")
    assert none.find(f"{SVG}desc") is not None


def test_a_chart_of_no_round_yet_still_reads() -> None:
    root = parse(cumulative_chart(NAMES, [], "t"))
    desc = root.find(f"{SVG}desc")
    assert desc is not None and desc.text == "No round is scored yet."
    assert len(series(root)) == 4


@pytest.mark.parametrize(
    ("low", "high"), [(0, 0), (-3, 2), (-13, 47), (-150, 3), (0, 1000), (-999, -998), (7, 7)]
)
def test_ticks_are_round_numbers_covering_the_values_and_zero(low: int, high: int) -> None:
    ticks = nice_ticks(low, high)
    assert ticks[0] <= min(low, 0) and ticks[-1] >= max(high, 0)
    assert 0 in ticks and 2 <= len(ticks) <= 7
    steps = {b - a for a, b in zip(ticks, ticks[1:], strict=False)}
    assert len(steps) == 1
    step = steps.pop()
    assert str(step).strip("0") in ("1", "2", "5")


def test_chart_colours_are_css_variables_with_dark_mode_values() -> None:
    css = STYLE.read_text(encoding="utf-8")
    section = css  # the chart colours sit with the page's other colours, light and dark
    root_block = re.search(r":root\s*\{([^}]*)\}", section)
    dark_block = re.search(
        r"@media screen and \(prefers-color-scheme: dark\)\s*\{\s*:root\s*\{([^}]*)\}", section
    )
    assert root_block and dark_block
    for number in range(1, 9):
        assert f"--chart-{number}:" in root_block.group(1)
        assert f"--chart-{number}:" in dark_block.group(1)
        assert f".chart-series-{number} {{ color: var(--chart-{number}); }}" in section
    markup = str(cumulative_chart(NAMES, TOTALS, "t"))
    # no colour is written into the SVG (a # is an id or a reference to one)
    svg = read_page(markup)
    values = [v for e in svg.find_all() for name, v in e.attrs.items() if name != "id"]
    written = [re.sub(r"url\(#[\w-]+\)", "", value) for value in values] + svg.strings
    assert not [text for text in written if "#" in text]
    assert 'stroke="currentColor"' in markup and 'fill="currentColor"' in markup
