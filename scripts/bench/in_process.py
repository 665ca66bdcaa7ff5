"""Measures taken in this process, with the app's test client on the same databases:
SQL statements per request, the weight of each page, and conditional requests."""

from __future__ import annotations

import secrets
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scripts.bench.load import Target
from scripts.bench.servers import request
from scripts.bench.table_game import Phone
from scripts.page_reader import loads


def make_app(url: str, secret: str, folder: Path, club: bool = True) -> Any:
    from companion import create_app

    instance = folder / f"instance-{secrets.token_hex(4)}"
    instance.mkdir()
    # a club's server, as the served one (``gunicorn``): one history for every phone; or,
    # not ``club``, a server of circles
    config = {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": secret, "CLUB_SERVER": club}
    return create_app(config, str(instance))


def frequent_player(app: Any) -> str:
    """The player seated in the most games."""
    import sqlalchemy as sa

    from companion.data.models import Player, Seat, db

    with app.app_context():
        query = (
            sa.select(Player.name)
            .join(Seat, Seat.player_id == Player.id)
            .group_by(Player.id, Player.name)
            .order_by(sa.func.count().desc(), Player.name)
            .limit(1)
        )
        return str(db.session.scalar(query))


def frequent_opponent(app: Any, name: str) -> str:
    """The player who sat with ``name`` in the most games."""
    import sqlalchemy as sa
    import sqlalchemy.orm as so

    from companion.data.models import Player, Seat, db

    mine, theirs, other = so.aliased(Seat), so.aliased(Seat), so.aliased(Player)
    with app.app_context():
        query = (
            sa.select(other.name)
            .select_from(mine)
            .join(Player, Player.id == mine.player_id)
            .join(theirs, sa.and_(theirs.game_id == mine.game_id, theirs.player_id != Player.id))
            .join(other, other.id == theirs.player_id)
            .where(Player.name == name)
            .group_by(other.id, other.name)
            .order_by(sa.func.count().desc(), other.name)
            .limit(1)
        )
        return str(db.session.scalar(query))


def games_of(app: Any, name: str) -> int:
    import sqlalchemy as sa

    from companion.data.models import Player, Seat, db

    with app.app_context():
        query = sa.select(sa.func.count()).select_from(Seat).join(Player).where(Player.name == name)
        return int(db.session.scalar(query) or 0)


def statement_counts(app: Any, phone: Phone, targets: list[Target]) -> dict[str, int]:
    """The SQL statements each target costs, served once by the test client."""
    import sqlalchemy as sa

    from companion.data.models import db

    client = app.test_client()
    for path in phone.edit_paths:  # this client's session now holds the phone's edit keys
        client.get(path)
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    counts = {}
    for target in targets:
        headers = {k: v for k, v in target.headers.items() if k != "Cookie"}
        if "If-None-Match" in headers:  # the tag covers the host, which differs in-process
            plain = {k: v for k, v in headers.items() if k != "If-None-Match"}
            headers["If-None-Match"] = client.get(target.path, headers=plain).headers["ETag"]

        def send(target: Target = target, headers: dict[str, str] = headers) -> Any:
            answer = client.open(
                target.path, method=target.method, json=target.body, headers=headers
            )
            answer.get_data()
            answer.close()
            return answer

        send()  # a first request may read what later ones find in memory
        statements.clear()
        sa.event.listen(engine, "before_cursor_execute", count)
        try:
            answer = send()
        finally:
            sa.event.remove(engine, "before_cursor_execute", count)
        if answer.status_code != target.status:
            sys.exit(f"{target.name}: status {answer.status_code} in-process")
        counts[target.name] = len(statements)
    return counts


def sql_times(app: Any, targets: list[Target], runs: int) -> dict[str, float]:
    """The SQL of each target, in this process: its statements caught as the test client
    serves it once, then each run again ``runs`` times on one connection, its fastest run
    kept (ms, summed over the statements): what the database itself costs, which a busy
    machine moves less than the served request's median."""
    import sqlalchemy as sa

    from companion.data.models import db

    client = app.test_client()
    statements: list[tuple[str, Any]] = []

    def catch(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any) -> None:
        statements.append((statement, parameters))

    with app.app_context():
        engine = db.engine
    times = {}
    for target in targets:
        headers = {k: v for k, v in target.headers.items() if k != "Accept-Encoding"}
        statements.clear()
        sa.event.listen(engine, "before_cursor_execute", catch)
        try:
            answer = client.open(target.path, method=target.method, headers=headers)
        finally:
            sa.event.remove(engine, "before_cursor_execute", catch)
        if answer.status_code != target.status:
            sys.exit(f"{target.name}: status {answer.status_code} in-process")
        total = 0.0
        with engine.connect() as connection:
            driver = connection.connection.driver_connection
            for statement, parameters in statements:
                fastest = float("inf")
                for _ in range(runs):
                    cursor = driver.cursor()
                    started = time.perf_counter()
                    cursor.execute(statement, parameters)
                    cursor.fetchall()
                    fastest = min(fastest, time.perf_counter() - started)
                    cursor.close()
                total += fastest
        times[target.name] = total * 1000
    return times


@dataclass
class Weight:
    """A page and what it loads, in bytes."""

    html: int
    css: int
    js: int
    gzipped: int
    assets: list[str]
    page: str = ""
    sources: dict[str, str] = field(default_factory=dict)  #: each asset's text, by URL

    @property
    def total(self) -> int:
        return self.html + self.css + self.js


def weigh(port: int, target: Target) -> Weight:
    """The page and every stylesheet and script it loads, plain, and the same gzipped."""
    plain = request(
        port, "GET", target.path, headers={**target.headers, "Accept-Encoding": "identity"}
    )
    packed = request(
        port, "GET", target.path, headers={**target.headers, "Accept-Encoding": "gzip"}
    )
    page = plain.body.decode()
    assets = loads(page)
    weight = Weight(len(plain.body), 0, 0, len(packed.body), assets, page)
    for url in assets:
        body = request(port, "GET", url, headers={"Accept-Encoding": "identity"}).body
        weight.sources[url] = body.decode()
        if url.endswith(".css"):
            weight.css += len(body)
        else:
            weight.js += len(body)
        weight.gzipped += len(request(port, "GET", url, headers={"Accept-Encoding": "gzip"}).body)
    return weight


def revalidates(port: int, path: str, headers: dict[str, str]) -> tuple[int, int, str]:
    """The status of a first GET, then of a GET with its ETag, and the ETag."""
    first = request(port, "GET", path, headers=headers)
    etag = first.headers.get("ETag") or ""
    if not etag:
        return first.status, 0, ""
    again = request(port, "GET", path, headers={**headers, "If-None-Match": etag})
    return first.status, again.status, etag
