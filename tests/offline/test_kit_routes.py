"""The offline kit's routes (companion/web/offline): a manifest naming every file with its size,
each file under a fingerprint of its content, kept for a year, with the right media type,
gzipped where that helps; unknown names 404; a server without the kit answers 503 and works
on. Pyodide here is a small stand-in vendored by scripts/offline_kit.py, as setup vendors the
real one (the browser test runs the real one)."""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.web.offline import kit as offline
from scripts import offline_kit
from tests.conftest import TEST_CONFIG

ROOT = Path(__file__).resolve().parents[2]
IMMUTABLE = "public, max-age=31536000, immutable"
PYODIDE_FILES = list(offline_kit.FILES)


def leave_as_is(folder: Path) -> None:
    """The stand-in's compiler: its standard library is no zip of Python to compile."""


def stand_in_pyodide(folder: Path, wasm: bytes = b"\0asm" + b"\1\2\3\4" * 2000) -> Path:
    """A vendored Pyodide of small files, as scripts/offline_kit.py writes it."""
    package = folder / "node_modules" / "pyodide"
    package.mkdir(parents=True)
    contents = {name: f"// {name}\n".encode() * 300 for name in PYODIDE_FILES}
    contents["pyodide.asm.wasm"] = wasm
    contents["python_stdlib.zip"] = random.Random(len(wasm)).randbytes(3000)  # gzip cannot shrink
    contents["pyodide-lock.json"] = json.dumps({"info": {"python": "3.14.2"}}).encode()
    for name, data in contents.items():
        (package / name).write_bytes(data)
    (package / "package.json").write_text('{"version": "314.0.7"}')
    sums = folder / "sums"
    sums.write_text("".join(f"{hashlib.sha256(d).hexdigest()}  {n}\n" for n, d in contents.items()))
    lock = folder / "lock.json"
    lock.write_text(json.dumps({"packages": {"node_modules/pyodide": {"version": "314.0.7"}}}))
    target = folder / "pyodide"
    # tests/scripts/test_offline_kit.py compiles the real one.
    offline_kit.vendor(source=package, target=target, sums=sums, lock=lock, compiler=leave_as_is)
    return target


AppFactory = Callable[..., Flask]


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[AppFactory]:
    """Apps serving the kit vendored in a folder of their own (no database is touched)."""

    def make(folder: Path, **config: Any) -> Flask:
        instance = tmp_path / f"instance-{len(list(tmp_path.iterdir()))}"
        instance.mkdir()
        settings = {
            **TEST_CONFIG,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance / 'kit.sqlite3'}",
            "OFFLINE_PYODIDE_FOLDER": str(folder),
            **config,
        }
        return create_app(settings, instance_path=str(instance))

    yield make


@pytest.fixture
def kit_client(tmp_path: Path, make_app: AppFactory) -> FlaskClient:
    return make_app(stand_in_pyodide(tmp_path / "kit")).test_client()


def manifest(client: FlaskClient) -> dict[str, Any]:
    answer = client.get("/offline-kit/manifest.json")
    assert answer.status_code == 200
    body: dict[str, Any] = answer.get_json()
    return body


def by_name(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {file["name"]: file for file in body["files"]}


@dataclass
class Answer:
    """A response read whole and closed (a file the server streams is closed with it)."""

    status_code: int
    headers: dict[str, str]
    mimetype: str
    data: bytes

    def get_data(self, as_text: bool = False) -> Any:
        return self.data.decode() if as_text else self.data


def fetch(
    client: FlaskClient, url: str, encoding: str | None = None, etag: str | None = None
) -> Answer:
    headers = {"Accept-Encoding": encoding or "identity"}
    if etag:
        headers["If-None-Match"] = etag
    with client.get(url, headers=headers) as answer:
        answer.direct_passthrough = False  # read a streamed file like any other body
        return Answer(
            answer.status_code, dict(answer.headers), answer.mimetype or "", answer.get_data()
        )


def test_the_manifest_names_every_file_with_the_sizes_a_browser_receives(
    kit_client: FlaskClient,
) -> None:
    body = manifest(kit_client)
    files = by_name(body)
    assert list(files) == [*PYODIDE_FILES, "rules.zip", "rules-worker.js"]
    assert body["worker"] == files["rules-worker.js"]["url"]
    assert body["pyodide"] == "314.0.7" and body["python"] == "3.14.2"
    for file in body["files"]:
        plain = fetch(kit_client, file["url"]).get_data()
        assert file["size"] == len(plain), file["name"]
        assert file["sha256"] == hashlib.sha256(plain).hexdigest(), file["name"]
        assert file["download_size"] == len(fetch(kit_client, file["url"], "gzip").get_data())
    assert body["size"] == sum(file["size"] for file in body["files"])
    assert body["download_size"] == sum(file["download_size"] for file in body["files"])
    assert body["download_size"] < body["size"], "gzip shrinks the runtime"


def test_the_manifest_is_asked_again_each_time_and_answers_304_while_unchanged(
    kit_client: FlaskClient,
) -> None:
    answer = kit_client.get("/offline-kit/manifest.json")
    assert answer.headers["Cache-Control"] == "no-cache"
    again = kit_client.get(
        "/offline-kit/manifest.json", headers={"If-None-Match": answer.headers["ETag"]}
    )
    assert again.status_code == 304


def test_every_file_is_kept_for_a_year_with_an_etag_and_answers_304(
    kit_client: FlaskClient,
) -> None:
    for file in manifest(kit_client)["files"]:
        for encoding in (None, "gzip"):
            answer = fetch(kit_client, file["url"], encoding)
            assert answer.status_code == 200
            assert answer.headers["Cache-Control"] == IMMUTABLE, file["name"]
            again = fetch(kit_client, file["url"], encoding, answer.headers["ETag"])
            assert again.status_code == 304


def test_the_kit_is_kept_whatever_the_language_or_the_cookies(kit_client: FlaskClient) -> None:
    """A changed cookie (a new edit key, another language) must not make a phone fetch the
    13 MB again: the kit's answers do not vary with them."""
    answers = [kit_client.get("/offline-kit/manifest.json")]
    answers += [fetch(kit_client, f["url"], "gzip") for f in manifest(kit_client)["files"]]
    for answer in answers:
        vary = {part.strip().lower() for part in answer.headers.get("Vary", "").split(",")}
        assert not vary & {"cookie", "accept-language"}, vary


def test_media_types_let_the_browser_compile_webassembly_and_import_modules(
    kit_client: FlaskClient,
) -> None:
    files = by_name(manifest(kit_client))
    expected = {
        "pyodide.mjs": "text/javascript",
        "pyodide.asm.mjs": "text/javascript",
        "pyodide.asm.wasm": "application/wasm",
        "python_stdlib.zip": "application/zip",
        "pyodide-lock.json": "application/json",
        "rules.zip": "application/zip",
        "rules-worker.js": "text/javascript",
    }
    for name, mimetype in expected.items():
        assert fetch(kit_client, files[name]["url"], "gzip").mimetype == mimetype, name


def test_gzip_is_sent_where_it_shrinks_the_file_and_the_browser_accepts_it(
    kit_client: FlaskClient,
) -> None:
    files = by_name(manifest(kit_client))
    wasm_url = files["pyodide.asm.wasm"]["url"]
    packed = fetch(kit_client, wasm_url, "gzip")
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    plain = fetch(kit_client, wasm_url)
    assert "Content-Encoding" not in plain.headers
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert packed.headers["ETag"] != plain.headers["ETag"]
    stdlib = fetch(kit_client, files["python_stdlib.zip"]["url"], "gzip")
    assert "Content-Encoding" not in stdlib.headers, "a zip of compressed files is sent as it is"


def test_each_url_carries_the_hash_of_its_content(tmp_path: Path, make_app: AppFactory) -> None:
    """A new Pyodide gives Pyodide's files and the worker (which names them) new URLs; the
    rules archive keeps its own. Two servers of one release name every file alike."""
    first = by_name(manifest(make_app(stand_in_pyodide(tmp_path / "one")).test_client()))
    same = by_name(manifest(make_app(stand_in_pyodide(tmp_path / "two")).test_client()))
    other = stand_in_pyodide(tmp_path / "three", wasm=b"\0asm another build" * 100)
    changed = by_name(manifest(make_app(other).test_client()))
    assert {n: f["url"] for n, f in first.items()} == {n: f["url"] for n, f in same.items()}
    for name in [*PYODIDE_FILES, "rules-worker.js"]:
        assert changed[name]["url"] != first[name]["url"], name
    assert changed["rules.zip"]["url"] == first["rules.zip"]["url"]
    rules_url = first["rules.zip"]["url"]
    served = fetch(make_app(tmp_path / "one" / "pyodide").test_client(), rules_url).get_data()
    fingerprint = hashlib.sha256(served).hexdigest()[: offline.FINGERPRINT_LENGTH]
    assert rules_url.split("/")[2] == fingerprint


def test_unknown_names_and_fingerprints_are_not_found(kit_client: FlaskClient) -> None:
    files = by_name(manifest(kit_client))
    pyodide_print = files["pyodide.mjs"]["url"].split("/")[2]
    rules_print = files["rules.zip"]["url"].split("/")[2]
    for url in (
        f"/offline-kit/{pyodide_print}/pyodide.js",
        f"/offline-kit/{pyodide_print}/kit.json",
        f"/offline-kit/{pyodide_print}/pyodide.asm.wasm.gz",
        f"/offline-kit/{rules_print}/pyodide.mjs",
        "/offline-kit/0123456789abcdef/pyodide.mjs",
        "/offline-kit/pyodide.mjs",
    ):
        assert fetch(kit_client, url).status_code == 404, url


def test_without_the_kit_the_server_says_so_and_works_on(
    tmp_path: Path, make_app: AppFactory
) -> None:
    client = make_app(tmp_path / "never-vendored").test_client()
    answer = client.get("/offline-kit/manifest.json")
    assert answer.status_code == 503
    assert "manage.py setup" in answer.get_json()["error"]
    assert fetch(client, "/offline-kit/0123456789abcdef/pyodide.mjs").status_code == 503
    assert fetch(client, "/").status_code == 200
    trick = {"variant": "classic", "cards": [{"colour": "red", "value": 3}]}
    assert client.post("/api/v1/tricks/resolve", json=trick).get_json()["winner"] == 0


def test_a_half_copied_kit_is_served_as_missing(tmp_path: Path, make_app: AppFactory) -> None:
    folder = stand_in_pyodide(tmp_path / "kit")
    wasm = folder / "pyodide.asm.wasm"
    wasm.write_bytes(wasm.read_bytes()[:100])
    answer = make_app(folder).test_client().get("/offline-kit/manifest.json")
    assert answer.status_code == 503
    assert str(folder) not in answer.get_data(as_text=True), "no server path is told"


def test_the_urls_hold_under_a_url_prefix(tmp_path: Path, make_app: AppFactory) -> None:
    app = make_app(stand_in_pyodide(tmp_path / "kit"), URL_PREFIX="/sticheln")
    client = app.test_client()
    answer = client.get("/sticheln/offline-kit/manifest.json")
    assert answer.status_code == 200
    for file in answer.get_json()["files"]:
        assert file["url"].startswith("/sticheln/offline-kit/")
        assert fetch(client, file["url"]).status_code == 200


def test_only_the_worker_may_compile_webassembly(kit_client: FlaskClient) -> None:
    files = by_name(manifest(kit_client))
    worker = fetch(kit_client, files["rules-worker.js"]["url"])
    directives = dict(
        part.strip().split(" ", 1) for part in worker.headers["Content-Security-Policy"].split(";")
    )
    assert directives["script-src"] == "'self' 'wasm-unsafe-eval'"
    for name in ("pyodide.mjs", "rules.zip"):
        policy = fetch(kit_client, files[name]["url"]).headers["Content-Security-Policy"]
        assert "wasm-unsafe-eval" not in policy
    assert "wasm-unsafe-eval" not in kit_client.get("/").headers["Content-Security-Policy"]


def test_the_worker_finds_pyodide_and_the_rules_at_their_fingerprinted_urls(
    kit_client: FlaskClient,
) -> None:
    """The worker names the other parts relative to its own URL; resolved there, they are
    the manifest's URLs."""
    from urllib.parse import urljoin

    body = manifest(kit_client)
    files = by_name(body)
    source = fetch(kit_client, body["worker"]).get_data(as_text=True)
    places = json.loads(source.split("const KIT = ", 1)[1].split(";\n", 1)[0])
    worker_url = "http://phone" + body["worker"]
    assert urljoin(worker_url, places["pyodide"] + "pyodide.mjs") == (
        "http://phone" + files["pyodide.mjs"]["url"]
    )
    assert urljoin(worker_url, places["rules"]) == "http://phone" + files["rules.zip"]["url"]


def test_the_shipped_modules_are_those_the_import_contract_keeps_pure() -> None:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    shipped = [c for c in contracts["contracts"] if "offline rules worker" in c["name"]]
    assert len(shipped) == 1
    shipped_modules = (*offline.SHIPPED_PACKAGES, *offline.SHIPPED_MODULES)
    assert sorted(shipped[0]["source_modules"]) == sorted(shipped_modules)
