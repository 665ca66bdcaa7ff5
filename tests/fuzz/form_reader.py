"""Pages' forms read as a browser would send them: the fields it sends without a button
pressed, the values each name could take (chips, options, radios) and the named buttons."""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin


@dataclass
class Form:
    """A page's form: what a browser would send (without pressing a named button), the
    values each name could take (chips, options, radios), and the named buttons."""

    action: str
    classes: str
    fields: list[tuple[str, str]]
    choices: dict[str, list[str]]
    buttons: list[tuple[str, str]]


class _FormReader(HTMLParser):
    def __init__(self, url: str):
        super().__init__(convert_charrefs=True)
        self.url = url
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: str | None = None
        self.options: list[tuple[str, bool]] = []
        self.textarea: str | None = None
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            if a.get("method", "get").lower() == "post":
                action = urldefrag(urljoin(self.url, a.get("action") or self.url)).url
                self.form = Form(action, a.get("class", ""), [], {}, [])
            return
        form = self.form
        name = a.get("name")
        if form is None or not name:
            return
        if tag == "input":
            kind = a.get("type", "text").lower()
            value = a.get("value", "on" if kind in ("checkbox", "radio") else "")
            if kind in ("checkbox", "radio"):
                form.choices.setdefault(name, []).append(value)
                if "checked" in a:
                    form.fields.append((name, value))
            elif kind in ("submit", "image"):
                form.buttons.append((name, value))
                form.choices.setdefault(name, []).append(value)
            else:
                form.fields.append((name, value))
        elif tag == "button" and a.get("type", "submit").lower() == "submit":
            form.buttons.append((name, a.get("value", "")))
            form.choices.setdefault(name, []).append(a.get("value", ""))
        elif tag == "select":
            self.select, self.options = name, []
        elif tag == "option" and self.select:
            value = a.get("value", "")
            self.options.append((value, "selected" in a))
            form.choices.setdefault(self.select, []).append(value)
        elif tag == "textarea":
            self.textarea, self.text = name, ""

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.text += data

    def handle_endtag(self, tag: str) -> None:
        form = self.form
        if form is None:
            return
        if tag == "form":
            self.forms.append(form)
            self.form = None
        elif tag == "select" and self.select:
            chosen = [v for v, selected in self.options if selected] or [
                v for v, _ in self.options[:1]
            ]
            form.fields.extend((self.select, v) for v in chosen)
            self.select = None
        elif tag == "textarea" and self.textarea:
            form.fields.append((self.textarea, self.text))
            self.textarea = None


def read_forms(page: str, url: str) -> list[Form]:
    """Every POST form of ``page``."""
    reader = _FormReader(url)
    reader.feed(page)
    return reader.forms
