"""Shared fixtures: a freshly built database on the backend chosen by the environment.

By default the tests build SQLite files in a temporary directory. With
``YIMAO_TEST_BACKEND=postgresql`` and ``YIMAO_TEST_PG_URL`` (a server URL such as
``postgresql+psycopg://postgres@127.0.0.1:5433/postgres``) every database fixture is a
fresh PostgreSQL database on that server instead.

Markers:

* ``@pytest.mark.sqlite_only``: the test checks SQLite itself (file bytes, pragmas, the
  ``sqlite3`` module); not run when the backend is PostgreSQL.
* ``@pytest.mark.needs_pg``: the test needs a PostgreSQL server (``YIMAO_TEST_PG_URL``),
  whatever the backend (e.g. comparing SQLite with PostgreSQL); skipped without one.
* ``@pytest.mark.alone``: the test measures the memory of a process it starts; under
  pytest-xdist it runs while no other test of the session runs (:func:`one_at_a_time`), so
  the suite's own load never shows in what it measures.

With ``YIMAO_TEST_BACKEND=postgresql`` only the tests that reach a database of the backend
run: those using a database fixture below (``empty_db``, ``fresh_db``, ``built_db``,
``module_db``, ``built_db_factory``, ``conn``, ``pg_template``), ``pg_empty_db`` or
``needs_pg``, less the ``sqlite_only`` ones; the others (rules, documents, SQLite files)
were run by the SQLite pass and are deselected (:func:`pytest_collection_modifyitems`). A
fixture that reaches the backend requests one of these, never the backend's URL itself.

Workers: the suite runs on pytest-xdist workers (``-n auto --dist loadfile`` in
pyproject.toml: a module's tests, and its module-scoped fixtures, stay on one worker); each
worker builds its own session database. ``pytest -n 0`` runs in one process.

``YIMAO_FULL_SIZE=1`` (set by ``.ci/run`` for one run on each backend) runs the cases whose
size is their point at full size: 8 writers x 500 readings (tests/test_concurrency.py), a
stream of 2,000,000 rows and queries left to meet the memory limits
(tests/test_sql_limits.py). By default they run smaller, proving the same behaviour on less
data.

``sqlite_built_db`` and ``pg_empty_db`` give a database of that backend whatever
``YIMAO_TEST_BACKEND`` says.

Hypothesis profiles (``HYPOTHESIS_PROFILE``):

* ``ci`` (the default, what a plain ``pytest`` uses): derandomized, so every run tries the
  same examples and a failure is reproduced by running again; no example database; no
  deadline and no "too slow" health check, so a loaded machine does not fail a test.
* ``explore``: random examples (1000 for a test that does not set its own number),
  failures remembered in the local ``.hypothesis/`` database; run
  ``HYPOTHESIS_PROFILE=explore pytest`` to hunt for new counterexamples, then pin any you
  find with ``@example``.
"""

from __future__ import annotations

import fcntl
import os
import queue
import shutil
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import rows_derived_once
from hypothesis import HealthCheck, settings
from hypothesis.errors import InvalidArgument
from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import URL, make_url

from yimao_db.building import build
from yimao_db.db import reader_engine
from yimao_db.kb import seeding

BACKEND = os.environ.get("YIMAO_TEST_BACKEND", "sqlite")
PG_URL = os.environ.get("YIMAO_TEST_PG_URL") or None
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
FULL_SIZE = os.environ.get("YIMAO_FULL_SIZE") == "1"

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "explore",
    derandomize=False,
    deadline=None,
    max_examples=1000,
    suppress_health_check=[HealthCheck.too_slow],
)


def pytest_configure(config: pytest.Config) -> None:
    if BACKEND not in ("sqlite", "postgresql"):
        raise pytest.UsageError(f"YIMAO_TEST_BACKEND={BACKEND!r}: expected sqlite or postgresql")
    if BACKEND == "postgresql" and PG_URL is None:
        raise pytest.UsageError(
            "YIMAO_TEST_BACKEND=postgresql needs YIMAO_TEST_PG_URL, e.g. "
            "postgresql+psycopg://postgres@127.0.0.1:5433/postgres"
        )
    try:
        settings.load_profile(PROFILE)
    except InvalidArgument:
        raise pytest.UsageError(
            f"HYPOTHESIS_PROFILE={PROFILE!r}: expected ci (the default) or explore"
        ) from None
    config.addinivalue_line(
        "markers", "sqlite_only: checks SQLite itself; skipped on the PostgreSQL backend"
    )
    config.addinivalue_line(
        "markers", "needs_pg: needs a PostgreSQL server (YIMAO_TEST_PG_URL); skipped without one"
    )
    config.addinivalue_line(
        "markers", "alone: measures a process's memory; runs while no other test runs (xdist)"
    )


@pytest.fixture(autouse=True, scope="session")
def rules_derived_once() -> Iterator[None]:
    """The seeded rows are a pure function of the package: each worker derives them once
    and every build and check in it gets a copy (``helpers.rows_derived_once``); the seed's
    self-checks still run each time. A test that changes what the seed scripts read puts
    back the real derivation, ``helpers.COMPUTE_ROWS``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(seeding, "computed_rows", rows_derived_once)
        yield


# The fixtures that hand a test a database of the backend under test.
BACKEND_FIXTURES = frozenset(
    {"empty_db", "fresh_db", "built_db", "module_db", "built_db_factory", "conn", "pg_template"}
)


def reaches_the_backend(item: pytest.Item) -> bool:
    """Whether ``item`` runs against the backend under test (or PostgreSQL in any case)."""
    if item.get_closest_marker("sqlite_only") is not None:
        return False
    names = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("needs_pg") is not None or bool(
        names & (BACKEND_FIXTURES | {"pg_empty_db"})
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On the PostgreSQL backend, keep only the tests that reach a database of it."""
    if BACKEND != "postgresql":
        return
    kept = [item for item in items if reaches_the_backend(item)]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[i for i in items if not reaches_the_backend(i)])
        items[:] = kept


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("needs_pg") is not None and PG_URL is None:
        pytest.skip("needs a PostgreSQL server: set YIMAO_TEST_PG_URL")


def _fresh_pg_database(template: str | None = None) -> URL:
    """A new database on the test server: empty, or a copy of ``template`` with the
    template's own settings (``ALTER DATABASE … SET``, which a build makes: revision
    0022's ``jit = off``), which ``CREATE DATABASE … TEMPLATE`` does not copy."""
    assert PG_URL is not None
    server = make_url(PG_URL)
    name = f"yimao_test_{uuid.uuid4().hex[:12]}"
    engine = create_engine(server, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        copy = f' TEMPLATE "{template}" STRATEGY FILE_COPY' if template else ""
        conn.execute(text(f'CREATE DATABASE "{name}"{copy}'))
        if template:
            settings = conn.execute(
                text(
                    "SELECT unnest(s.setconfig) FROM pg_db_role_setting s"
                    " JOIN pg_database d ON d.oid = s.setdatabase"
                    " WHERE d.datname = :template AND s.setrole = 0"
                ),
                {"template": template},
            ).scalars()
            for setting in list(settings):
                key, _, value = setting.partition("=")
                quoted = value.replace("'", "''")
                conn.execute(text(f'ALTER DATABASE "{name}" SET "{key}" TO \'{quoted}\''))
    engine.dispose()
    return server.set(database=name)


def _drop_pg_database(url: URL) -> None:
    server = url.set(database="postgres")
    engine = create_engine(server, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)'))
    engine.dispose()


def _pg_empty() -> Iterator[str]:
    """An empty database on the test server (a URL as text), dropped when done."""
    url = _fresh_pg_database()
    yield url.render_as_string(hide_password=False)
    _drop_pg_database(url)


@pytest.fixture
def empty_db(tmp_path: Path) -> Iterator[str]:
    """A URL (as text) of an empty database on the chosen backend."""
    if BACKEND == "postgresql":
        yield from _pg_empty()
    else:
        yield str(tmp_path / "yimao.db")


# Built databases are copies of one database built per session (a file copy on SQLite,
# CREATE DATABASE ... TEMPLATE on PostgreSQL): the same bytes a build writes, without
# building again for every test. The tests of the build itself (test_build.py and others)
# call build() on an empty database.


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file built once per session, read-only; copy it, never open it."""
    path = tmp_path_factory.mktemp("template") / "yimao.db"
    build(str(path))
    assert not path.with_name("yimao.db-wal").exists()
    path.chmod(0o444)
    return path


@pytest.fixture(scope="session")
def pg_template() -> Iterator[str]:
    """The name of a PostgreSQL database built once per session, the template of the
    built databases of the PostgreSQL backend."""
    url = _fresh_pg_database()
    build(url)
    assert url.database is not None
    yield url.database
    _drop_pg_database(url)


class _PgCopies:
    """Copies of the session's PostgreSQL build made ahead, in a thread, while the tests
    run: ``CREATE DATABASE … TEMPLATE`` takes about 0.4 s on a loaded server (most of it the
    two checkpoints of ``STRATEGY FILE_COPY``), which a test then need not wait for. At most
    ``AHEAD`` copies wait; a failure to make one is raised in the test that takes it."""

    AHEAD = 2

    def __init__(self, template: str) -> None:
        self.template = template
        self.ready: queue.Queue[URL | BaseException] = queue.Queue()
        self.slots = threading.Semaphore(self.AHEAD)
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None

    def take(self) -> URL:
        if self.thread is None:  # the first copy of the session starts the thread
            self.thread = threading.Thread(target=self._make, name="pg-copies", daemon=True)
            self.thread.start()
        made = self.ready.get()
        self.slots.release()
        if isinstance(made, BaseException):
            raise made
        return made

    def _make(self) -> None:
        while not self.stopping.is_set():
            if not self.slots.acquire(timeout=0.2):
                continue
            try:
                self.ready.put(_fresh_pg_database(template=self.template))
            except BaseException as exc:  # handed to the test that takes this copy
                self.ready.put(exc)

    def close(self) -> None:
        """Stop making copies and drop those nobody took."""
        self.stopping.set()
        if self.thread is not None:
            self.thread.join()
        while not self.ready.empty():
            made = self.ready.get()
            if isinstance(made, URL):
                _drop_pg_database(made)


@pytest.fixture(scope="session")
def pg_copies(pg_template: str) -> Iterator[_PgCopies]:
    """Copies of ``pg_template``, made ahead (:class:`_PgCopies`)."""
    copies = _PgCopies(pg_template)
    yield copies
    copies.close()


def _pg_copy(request: pytest.FixtureRequest) -> Iterator[str]:
    """A copy of the session's PostgreSQL build (a URL as text), dropped when done."""
    url = request.getfixturevalue("pg_copies").take()
    yield url.render_as_string(hide_password=False)
    _drop_pg_database(url)


def _copy_built(request: pytest.FixtureRequest, folder: Path) -> Iterator[str]:
    """A copy of the session's built database on the chosen backend, dropped
    (PostgreSQL) when done."""
    if BACKEND == "postgresql":
        yield from _pg_copy(request)
    else:
        path = folder / "yimao.db"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        yield str(path)


@pytest.fixture
def fresh_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A freshly built database (function scope: tests may write to it)."""
    yield from _copy_built(request, tmp_path)


@pytest.fixture(scope="session")
def built_db(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """One built database shared by read-only tests."""
    yield from _copy_built(request, tmp_path_factory.mktemp("built"))


@pytest.fixture(scope="module")
def module_db(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A freshly built database of the chosen backend for one test module, which may write
    to it (cast readings) in a fixture before its tests read it."""
    yield from _copy_built(request, tmp_path_factory.mktemp("module"))


@pytest.fixture(scope="module")
def built_db_factory(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[], str]]:
    """Makes more built databases of the chosen backend for one test module (each a copy of
    the session's build, dropped at the module's end), for a module that needs more than
    ``module_db``."""
    made: list[Iterator[str]] = []

    def new() -> str:
        copies = _copy_built(request, tmp_path_factory.mktemp("built"))
        made.append(copies)
        return next(copies)

    yield new
    for copies in made:
        next(copies, None)  # past its yield: dropped (PostgreSQL)


@pytest.fixture
def sqlite_built_db(sqlite_template: Path, tmp_path: Path) -> str:
    """A freshly built SQLite file, whatever the backend under test."""
    path = tmp_path / "sqlite-yimao.db"
    shutil.copyfile(sqlite_template, path)
    return str(path)


@pytest.fixture
def built_pg(request: pytest.FixtureRequest) -> Iterator[str]:
    """A built PostgreSQL database (a URL as text), whatever the backend under test: a copy
    of the session's ``pg_template``, dropped when done."""
    if PG_URL is None:
        pytest.skip("needs a PostgreSQL server: set YIMAO_TEST_PG_URL")
    yield from _pg_copy(request)


@pytest.fixture
def pg_empty_db() -> Iterator[str]:
    """An empty PostgreSQL database (a URL as text), whatever the backend under test."""
    if PG_URL is None:
        pytest.skip("needs a PostgreSQL server: set YIMAO_TEST_PG_URL")
    yield from _pg_empty()


@pytest.fixture(autouse=True)
def no_env_database(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests choose their database explicitly: ignore a $YIMAO_DB_URL set by the user."""
    monkeypatch.delenv("YIMAO_DB_URL", raising=False)


@pytest.fixture(scope="module")
def conn(built_db: str) -> Iterator[Connection]:
    """A read-only connection to the shared built database."""
    engine = reader_engine(built_db)
    with engine.connect() as connection:
        yield connection
    engine.dispose()


# --- tests that run alone -------------------------------------------------------------------
# Under pytest-xdist every test holds a shared lock on a file of the session's temporary
# folder (common to its workers) while it runs; a test marked ``alone`` takes it exclusively,
# after closing a turnstile that new tests pass on their way in, so it starts once the
# running tests end and none starts beside it. Without workers there is nothing to wait for.


@pytest.fixture(scope="session")
def _session_locks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int] | None]:
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        yield None
        return
    shared = tmp_path_factory.getbasetemp().parent  # the run's folder, one per session
    turnstile = os.open(shared / "yimao-turnstile.lock", os.O_RDWR | os.O_CREAT, 0o600)
    running = os.open(shared / "yimao-running.lock", os.O_RDWR | os.O_CREAT, 0o600)
    yield turnstile, running
    os.close(turnstile)
    os.close(running)


@pytest.fixture(autouse=True)
def one_at_a_time(
    request: pytest.FixtureRequest, _session_locks: tuple[int, int] | None
) -> Iterator[None]:
    """Holds the session's lock while a test runs: shared, or exclusive for ``alone``."""
    if _session_locks is None:
        yield
        return
    turnstile, running = _session_locks
    alone = request.node.get_closest_marker("alone") is not None
    fcntl.flock(turnstile, fcntl.LOCK_EX)
    try:
        fcntl.flock(running, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
    finally:
        fcntl.flock(turnstile, fcntl.LOCK_UN)
    try:
        yield
    finally:
        fcntl.flock(running, fcntl.LOCK_UN)
