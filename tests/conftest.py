"""Shared fixtures: a freshly built database on the backend chosen by the environment.

By default the tests build SQLite files in a temporary directory. With
``YIMAO_TEST_BACKEND=postgresql`` and ``YIMAO_TEST_PG_URL`` (a server URL such as
``postgresql+psycopg://postgres@127.0.0.1:5433/postgres``) every database fixture is a
fresh PostgreSQL database on that server instead.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, make_url

from yimao_db.build import build

BACKEND = os.environ.get("YIMAO_TEST_BACKEND", "sqlite")


def _fresh_pg_database() -> URL:
    server = make_url(os.environ["YIMAO_TEST_PG_URL"])
    name = f"yimao_test_{uuid.uuid4().hex[:12]}"
    engine = create_engine(server, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return server.set(database=name)


def _drop_pg_database(url: URL) -> None:
    server = url.set(database="postgres")
    engine = create_engine(server, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)'))
    engine.dispose()


@pytest.fixture
def empty_db(tmp_path: Path) -> Iterator[str]:
    """A URL (as text) of an empty database on the chosen backend."""
    if BACKEND == "postgresql":
        url = _fresh_pg_database()
        yield url.render_as_string(hide_password=False)
        _drop_pg_database(url)
    else:
        yield str(tmp_path / "yimao.db")


@pytest.fixture
def fresh_db(empty_db: str) -> str:
    """A freshly built database (function scope: tests may write to it)."""
    build(empty_db)
    return empty_db


@pytest.fixture(scope="session")
def built_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One built database shared by read-only tests."""
    if BACKEND == "postgresql":
        url = _fresh_pg_database()
        build(url)
        yield url.render_as_string(hide_password=False)
        _drop_pg_database(url)
    else:
        path = str(tmp_path_factory.mktemp("built") / "yimao.db")
        build(path)
        yield path
