"""Pages read as parsed HTML, not matched with regular expressions: the elements of a page
with their attributes and text, found by tag and attribute (``data-*`` hooks first).

Standard library only, shared by the tests and the scripts (the load and crash tests read
the CSRF token of the pages they post to).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

#: Elements that never hold anything and have no end tag.
VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)


@dataclass
class Element:
    """One element: its tag, its attributes (a bare attribute has the value ""), the text it
    holds (its descendants' too) and the elements inside it."""

    tag: str
    attrs: dict[str, str]
    parts: list[str] = field(default_factory=list, repr=False)
    children: list[Element] = field(default_factory=list, repr=False)

    @property
    def text(self) -> str:
        """The text inside, as the DOM's textContent joins it, with runs of spaces collapsed."""
        return " ".join("".join(self.parts).split())

    def get(self, name: str, default: str | None = None) -> str | None:
        """The value of attribute ``name``."""
        return self.attrs.get(name, default)

    @property
    def classes(self) -> list[str]:
        """The words of the class attribute."""
        return (self.attrs.get("class") or "").split()

    def find_all(self, tag: str | None = None, **attrs: str | bool) -> list[Element]:
        """The elements inside this one that match (see :func:`matches`), in page order."""
        found: list[Element] = []
        for child in self.children:
            if matches(child, tag, attrs):
                found.append(child)
            found.extend(child.find_all(tag, **attrs))
        return found

    def find(self, tag: str | None = None, **attrs: str | bool) -> Element:
        """The first element inside this one that matches; LookupError if there is none."""
        found = self.find_all(tag, **attrs)
        if not found:
            wanted = " ".join([tag or "*", *(f"{k}={v!r}" for k, v in attrs.items())])
            raise LookupError(f"no element {wanted} on the page")
        return found[0]


def matches(element: Element, tag: str | None, attrs: dict[str, str | bool]) -> bool:
    """Whether ``element`` has the tag and attributes asked for. Keyword names are attribute
    names with ``_`` for ``-`` (``data_seat="2"``); ``class_`` asks for one class among
    several; True asks only that the attribute is there."""
    if tag is not None and element.tag != tag:
        return False
    for key, wanted in attrs.items():
        if key == "class_":
            if wanted not in element.classes:
                return False
            continue
        value = element.attrs.get(key.replace("_", "-"))
        if value is None or (wanted is not True and value != wanted):
            return False
    return True


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.open: list[Element] = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.open[-1].children.append(element)
        if tag not in VOID:
            self.open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open[-1].children.append(Element(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.open) - 1, 0, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return

    def handle_data(self, data: str) -> None:
        for element in self.open:
            element.parts.append(data)


def read_page(page: str) -> Element:
    """The whole page as a tree of elements under a document root."""
    reader = _Reader()
    reader.feed(page)
    reader.close()
    return reader.root


def csrf_token(page: str) -> str:
    """The CSRF token of the first form on ``page``, as a browser would send it back;
    LookupError if the page has none."""
    token = read_page(page).find("input", name="csrf_token").get("value")
    if not token:
        raise LookupError("the page has no CSRF token")
    return token
