"""Pages read as parsed HTML, not matched with regular expressions: the elements of a page
with their attributes and text, found by tag and attribute (``data-*`` hooks first).

Standard library only, shared by the tests and the scripts (the load and crash tests read
the CSRF token of the pages they post to).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser

#: What HTML counts as white space between words (not the no-break space).
HTML_SPACE = re.compile(r"[ \t\n\r\f]+")
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
    """One element: its tag, its attributes (a bare attribute has the value ""), and what it
    holds, text and elements in page order."""

    tag: str
    attrs: dict[str, str]
    content: list[str | Element] = field(default_factory=list, repr=False)

    @property
    def children(self) -> list[Element]:
        """The elements directly inside this one."""
        return [part for part in self.content if isinstance(part, Element)]

    @property
    def text(self) -> str:
        """The text inside, as the DOM's textContent joins it, with runs of HTML white space
        collapsed (a no-break space stays: it is part of what the page says)."""
        return HTML_SPACE.sub(" ", self._joined(frozenset(), None)).strip(" ")

    @property
    def own_text(self) -> str:
        """The text directly inside, not in the elements it holds (a name beside its badge),
        collapsed as :attr:`text` is."""
        own = "".join(part for part in self.content if isinstance(part, str))
        return HTML_SPACE.sub(" ", own).strip(" ")

    def words(self, skip: Iterable[str] = (), joined: Iterable[str] = ()) -> str:
        """The words a reader sees: every tag a word break except those ``joined`` (a link
        inside a word), elements whose tag is in ``skip`` (an inline chart) left out, every
        run of spaces (no-break ones too) one space."""
        return " ".join(self._joined(frozenset(skip), frozenset(joined)).split())

    def spoken(self) -> str:
        """The words a screen reader says: :meth:`words` without the elements hidden from
        it (``aria-hidden="true"``, a colour's symbol beside its name)."""
        return self._heard().words()

    def _heard(self) -> Element:
        heard = [
            part if isinstance(part, str) else part._heard()
            for part in self.content
            if isinstance(part, str) or part.get("aria-hidden") != "true"
        ]
        return Element(self.tag, self.attrs, heard)

    def _joined(self, skip: frozenset[str], joined: frozenset[str] | None) -> str:
        pieces = []
        for part in self.content:
            if isinstance(part, str):
                pieces.append(part)
            elif part.tag in skip:
                pieces.append(" ")
            elif joined is None or part.tag in joined:
                pieces.append(part._joined(skip, joined))
            else:
                pieces.append(f" {part._joined(skip, joined)} ")
        return "".join(pieces)

    def get(self, name: str, default: str | None = None) -> str | None:
        """The value of attribute ``name``."""
        return self.attrs.get(name, default)

    @property
    def classes(self) -> list[str]:
        """The words of the class attribute."""
        return (self.attrs.get("class") or "").split()

    def modifier(self, block: str) -> str:
        """The first ``block--modifier`` class (a chip's colour) without its block; the
        element must carry the block class too."""
        assert block in self.classes, self
        names = [name for name in self.classes if name.startswith(f"{block}--")]
        assert names, self
        return names[0].removeprefix(f"{block}--")

    @property
    def strings(self) -> list[str]:
        """Every piece of text inside, as the page writes it between tags, in page order."""
        found: list[str] = []
        for part in self.content:
            found.extend([part] if isinstance(part, str) else part.strings)
        return found

    def after(self, element: Element) -> Element:
        """The element right after ``element`` (the very one, found inside this one) in
        their parent: the error list that follows its field. LookupError if there is none."""
        for parent in [self, *self.find_all()]:
            children = parent.children
            for place, child in enumerate(children[:-1]):
                if child is element:
                    return children[place + 1]
        raise LookupError(f"nothing follows {element.tag} {element.attrs}")

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
        self.open[-1].content.append(element)
        if tag not in VOID:
            self.open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open[-1].content.append(Element(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.open) - 1, 0, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.open[-1].content.append(data)


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


def words_of_main(page: str, skip: Iterable[str] = (), joined: Iterable[str] = ()) -> str:
    """The words of the page's ``<main>`` (see :meth:`Element.words`)."""
    return read_page(page).find("main").words(skip, joined)


def page_language(page: str) -> str | None:
    """The ``lang`` of the page's ``<html>`` element: the language it says it is in."""
    return read_page(page).find("html").get("lang")


def addresses(page: str) -> list[str]:
    """Every address the page links to or loads (its ``href`` and ``src`` values), in page
    order."""
    return [
        value
        for element in read_page(page).find_all()
        for name, value in element.attrs.items()
        if name in ("href", "src")
    ]


def loads(page: str) -> list[str]:
    """The stylesheets and scripts the page loads, in page order."""
    return [
        str(element.get("href" if element.tag == "link" else "src"))
        for element in read_page(page).find_all()
        if (element.tag == "link" and element.get("rel") == "stylesheet" and element.get("href"))
        or (element.tag == "script" and element.get("src"))
    ]
