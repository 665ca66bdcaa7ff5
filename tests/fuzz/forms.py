"""Forms sent as a browser sends them, and as a broken or hostile client might: fields
missing, emptied, repeated or full of garbage, invalid UTF-8, junk after the body, another
chip tapped, a stale version, no CSRF token, a phone without the edit key."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import quote_from_bytes

from flask.testing import FlaskClient
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from tests.fuzz.answers import check_page, is_redirect, note_status
from tests.fuzz.bodies import HUGE_TEXT, ODD_TEXT
from tests.fuzz.world import Scene, World

Pairs = list[tuple[str | bytes, str | bytes]]


def encode_form(pairs: Pairs, junk: bytes = b"") -> bytes:
    """``application/x-www-form-urlencoded`` as a browser sends it; bytes are sent as they
    are (invalid UTF-8 too), text with lone surrogates as the bytes Python gives them;
    ``junk`` is appended raw (stray ``&``, bad percent escapes)."""

    def part(value: str | bytes) -> str:
        raw = value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass")
        return quote_from_bytes(raw, safe="")

    body = "&".join(f"{part(k)}={part(v)}" for k, v in pairs).encode()
    return body + junk


#: Values a form field might receive from a broken or hostile client.
GARBAGE_VALUES = (
    st.text(max_size=15)
    | ODD_TEXT
    | HUGE_TEXT
    | st.sampled_from(
        [
            "-1",
            "0",
            "1e3",
            "99999999999999999999",
            "0x10",
            "٣",
            "３",
            " 2",
            "+1",
            "1.0",
            "red-7",
            "red-99",
            "pink-3",
            "red--1",
            "red-007",
            "red-",
            "-7",
            "red-7-7",
            "red+blue",
            "red+red",
            "on",
            "yes",
            "s0-tricks:+1",
            "s9-tricks:+1",
            "s0-red:-1",
            "x" * 70_000,
        ]
    )
)
RAW_VALUES = st.sampled_from([b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"a\x00b", b"%", b"\x80abc"])
JUNK = st.sampled_from([b"", b"", b"", b"&", b"&&=", b"&%zz=%", b"&=x", b"&a=%E0%A4%A", b"&%FF=1"])


@st.composite
def mutated_form(
    draw: st.DrawFn, fields: Sequence[tuple[str, str]], choices: dict[str, list[str]]
) -> tuple[Pairs, bytes]:
    """A form's fields as they are (three times in seven) or after one to four mutations:
    a field dropped, emptied, repeated, given garbage or invalid UTF-8, another of its own
    choices (a chip tapped), a foreign or misplaced field added; and sometimes junk after
    the body."""
    pairs: Pairs = list(fields)
    names = sorted({k for k, _ in fields} | set(choices))
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 1, 2, 4]), label="mutations")):
        kind = draw(
            st.sampled_from(
                ["drop", "garbage", "repeat", "choice", "tap", "add", "raw", "empty", "version"]
            )
        )
        versions = [i for i, (k, v) in enumerate(pairs) if k == "version" and isinstance(v, str)]
        if kind == "version" and versions:  # stale, ahead, or no number that fits anywhere
            index = versions[0]
            seen = int(str(pairs[index][1])) if str(pairs[index][1]).isdigit() else 1
            wrong = draw(st.sampled_from([seen - 1, seen + 1, 0, -1, 2**31, 2**63, 10**30]))
            pairs[index] = ("version", str(wrong))
        elif kind == "drop" and pairs:
            pairs.pop(draw(st.integers(0, len(pairs) - 1)))
        elif kind == "garbage" and pairs:
            index = draw(st.integers(0, len(pairs) - 1))
            pairs[index] = (pairs[index][0], draw(GARBAGE_VALUES))
        elif kind == "empty" and pairs:
            index = draw(st.integers(0, len(pairs) - 1))
            pairs[index] = (pairs[index][0], "")
        elif kind == "repeat" and pairs:
            name, value = draw(st.sampled_from(pairs))
            pairs.append((name, draw(st.just(value) | GARBAGE_VALUES)))
        elif kind in ("choice", "tap") and choices:
            name = draw(st.sampled_from(sorted(choices)))
            value = draw(st.sampled_from(choices[name]))
            if kind == "choice":
                pairs = [(k, v) for k, v in pairs if k != name]
            pairs.append((name, value))
        elif kind == "add" and names:
            name = draw(
                st.sampled_from(names)
                | st.text(max_size=10)
                | st.sampled_from(["s9-marked", "s-1-tricks", "s0-", "player_8", "player_99"])
            )
            pairs.append((name, draw(GARBAGE_VALUES)))
        elif kind == "raw" and pairs:
            index = draw(st.integers(0, len(pairs) - 1))
            pairs[index] = (pairs[index][0], draw(RAW_VALUES))
    return pairs, draw(JUNK)


def post_form(client: FlaskClient, url: str, pairs: Pairs, junk: bytes = b"") -> TestResponse:
    """Send a form body as a browser would."""
    return client.post(
        url, data=encode_form(pairs, junk), content_type="application/x-www-form-urlencoded"
    )


def with_value(pairs: Pairs, name: str, value: str | bytes | None) -> Pairs:
    """``pairs`` with every ``name`` replaced by one ``value`` (or removed, for ``None``)."""
    kept: Pairs = [(k, v) for k, v in pairs if k != name]
    return kept if value is None else [*kept, (name, value)]


#: Who sends a form: the phone holding the edit key, a phone without it (its own valid CSRF
#: token), and the editor without a CSRF token or with a foreign one.
SENDERS = ["editor", "editor", "editor", "stranger", "no token", "foreign token"]


def sender(scene: Scene, who: str, pairs: Pairs) -> tuple[FlaskClient, Pairs]:
    """The client and the fields it sends."""
    if who == "stranger":
        return scene.stranger, with_value(pairs, "csrf_token", scene.stranger_token)
    if who == "no token":
        return scene.editor, with_value(pairs, "csrf_token", None)
    if who == "foreign token":
        return scene.editor, with_value(pairs, "csrf_token", scene.stranger_token)
    return scene.editor, pairs


def send_form(
    world: World, client: FlaskClient, url: str, pairs: Pairs, junk: bytes, keep_scene: bool
) -> bool:
    """Post the form and check the answer: a refusal (anything but a redirect) changed
    nothing; an accepted change left every game consistent and its page shows no markup.
    Answers whether it was accepted."""
    where = f"POST {url} {pairs!r:.1500} {junk!r}"
    world.sending()
    response = post_form(client, url, pairs, junk)
    note_status(response)
    check_page(response, where)
    if not is_redirect(response):
        world.refused(where)
        return False
    world.accepted(keep_scene)
    target = response.headers["Location"]
    check_page(client.get(target), f"GET {target} after {where}")
    return True


def fuzz_form(
    world: World,
    scene: Scene,
    data: st.DataObject,
    url: str,
    selector: str = "",
    overlay: Pairs | None = None,
    needs_rights: bool = True,
    keep_scene: bool = False,
) -> bool:
    """Send the form of page ``url``: as the page shows it, or with ``overlay``'s values in
    place of its own (a filled-in form), perhaps with one of its buttons, then mutated, by
    one of the senders. Only the editor with a valid token may get a change through (and
    anyone, for forms that need no rights). Answers whether the change was accepted."""
    form = scene.form(url, selector)
    pairs: Pairs = list(form.fields)
    for name in dict.fromkeys(k for k, _ in overlay or []):
        pairs = [(k, v) for k, v in pairs if k != name]
    pairs += overlay or []
    if form.buttons and data.draw(st.booleans(), label="press a button"):
        name = data.draw(st.sampled_from(sorted({k for k, _ in form.buttons})), label="button")
        values = sorted({v for k, v in form.buttons if k == name})
        pairs.append((name, data.draw(st.sampled_from(values), label="value")))
    mutated_pairs, junk = data.draw(mutated_form(pairs, form.choices), label="form")
    who = data.draw(st.sampled_from(SENDERS), label="sender")
    client, sent = sender(scene, who, mutated_pairs)
    accepted = send_form(world, client, form.action, sent, junk, keep_scene)
    if who in ("no token", "foreign token") or (who == "stranger" and needs_rights):
        assert not accepted, f"{who} got a change through: {sent!r:.500}"
    return accepted
