"""What the stylesheet weighs, section by section, and what a page may use of it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from scripts.page_reader import read_page

BANNER = re.compile(r"/\*\s*={10,}\s*\n\s*(?P<title>[^\n]*)")
COMMENT = re.compile(r"/\*.*?\*/", re.S)
FUNCTIONAL_PSEUDO = re.compile(r":(?:not|has|is|where)\((?:[^()]|\([^()]*\))*\)")
PSEUDO = re.compile(r"::?[\w-]+(?:\([^)]*\))?")
ATTRIBUTE = re.compile(r"\[[^\]]*\]")
GROUPING_AT_RULES = ("@media", "@supports", "@layer", "@container")


@dataclass
class Rule:
    """A style rule (or a non-grouping at-rule) and its size without comments."""

    selector: str
    size: int


def css_rules(text: str) -> list[Rule]:
    """The rules of comment-free CSS, those inside @media and the like included."""
    rules, position = [], 0
    while (brace := text.find("{", position)) >= 0:
        depth, end = 0, brace
        for end in range(brace, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        prelude = text[position:brace].strip()
        if prelude.startswith(GROUPING_AT_RULES):
            rules += css_rules(text[brace + 1 : end])
        else:
            rules.append(Rule(prelude, len(text[position : end + 1].strip().encode())))
        position = end + 1
    return rules


@dataclass
class PageFeatures:
    """What selectors can match on a page: its classes (with those its scripts name), ids and
    element names."""

    classes: set[str]
    ids: set[str]
    tags: set[str]

    @classmethod
    def of(cls, page: str, scripts: list[str]) -> PageFeatures:
        elements = read_page(page).find_all()
        classes = {name for element in elements for name in element.classes}
        for script in scripts:  # classes a script may add: every word in a string literal
            for literal in re.findall(r"\"([^\"\n]*)\"|'([^'\n]*)'", script):
                classes |= set(re.findall(r"[\w-]+", " ".join(literal)))
        ids = {str(element.get("id")) for element in elements if element.get("id") is not None}
        tags = {element.tag for element in elements}
        return cls(classes, ids, tags | {"html", "body"})

    def may_match(self, selector: str) -> bool:
        """Whether a selector may match on the page (pseudo-classes and attributes aside)."""
        if selector.startswith("@"):
            return True  # @keyframes, @font-face, @page: counted as used
        for alternative in selector.split(","):
            bare = ATTRIBUTE.sub("", PSEUDO.sub("", FUNCTIONAL_PSEUDO.sub("", alternative)))
            if all(self.compound_matches(part) for part in re.split(r"[\s>+~]+", bare.strip())):
                return True
        return False

    def compound_matches(self, compound: str) -> bool:
        tag = re.match(r"[a-zA-Z][\w-]*", compound)
        return (
            (tag is None or tag.group().lower() in self.tags)
            and all(c in self.classes for c in re.findall(r"\.([\w-]+)", compound))
            and all(i in self.ids for i in re.findall(r"#([\w-]+)", compound))
        )


def stylesheet_use(css: str, pages: dict[str, PageFeatures]) -> list[list[str]]:
    """Per section of the stylesheet (cut at its ``/* ====`` banners): its bytes, its bytes
    without comments, and the bytes of the rules that may match on each page."""
    starts = [(0, "(before the first banner: variables, base, ...)")]
    starts += [(m.start(), m["title"].strip()) for m in BANNER.finditer(css)]
    rows, totals = [], [0, 0] + [0] * len(pages)
    for (start, title), (end, _) in zip(starts, [*starts[1:], (len(css), "")], strict=True):
        text = css[start:end]
        rules = css_rules(COMMENT.sub("", text))
        sizes = [len(text.encode()), sum(rule.size for rule in rules)]
        sizes += [
            sum(rule.size for rule in rules if features.may_match(rule.selector))
            for features in pages.values()
        ]
        totals = [a + b for a, b in zip(totals, sizes, strict=True)]
        rows.append([title[:60], *(f"{size:,}" for size in sizes)])
    rows.append(["all", *(f"{size:,}" for size in totals)])
    return rows
