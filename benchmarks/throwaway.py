"""A throwaway PostgreSQL database for a benchmark: created on a server, dropped afterwards
(the server URL's user needs CREATEDB)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url


@contextmanager
def postgresql_database(server_url: str) -> Iterator[str]:
    """A new database ``yimao_bench_…`` on the server of ``server_url``: its URL, as text."""
    server = make_url(server_url)
    name = f"yimao_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
