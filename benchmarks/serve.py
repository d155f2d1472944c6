"""Benchmark: ``yimao serve``'s table pages of the reading views with their default facets,
and the canned queries, against datasette's time limits.

Starts ``yimao serve`` on a database that holds readings (for example the file
``benchmarks/reports.py --db FILE`` fills), fetches each page ``--repeat`` times after a
warm-up, and prints the median time of each and the facets datasette reports as timed out
(each facet has its own limit, 500 ms; the page's SQL 1 s). Goal: every page answers within
1 s with none of its default facets timed out.

    python benchmarks/serve.py --db /tmp/r1m.db [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

PAGES = ("v_reading", "v_reading_line", "v_reading_sign", "v_reading_hidden")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # a local server


def fetch(url: str) -> tuple[float, str]:
    """(seconds, the page); an HTTP error's page is returned too, marked ``HTTP CODE``."""
    start = time.perf_counter()
    try:
        with OPENER.open(url, timeout=120) as response:
            body = response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        body = f"HTTP {exc.code} " + exc.read().decode("utf-8", "replace")
    return time.perf_counter() - start, body


def canned(base: str) -> list[str]:
    """The canned queries' paths, as the database page links them."""
    _, page = fetch(f"{base}/yimao")
    return sorted(set(re.findall(r'href="/yimao/(\w+)"', page)) & set(_canned_names()))


def _canned_names() -> list[str]:
    from yimao_db.web.queries import queries

    return [q.name for q in queries().values() if not q.params]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--db", required=True)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "yimao_db", "serve", "--db", args.db, "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=Path(__file__).resolve().parent.parent,  # not here: benchmarks/calendar.py
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                fetch(f"{base}/")
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("yimao serve did not start") from None
                time.sleep(0.2)
        print(f"yimao serve on {args.db}, medians of {args.repeat} (load {os.getloadavg()[0]:.1f})")
        for path in [*PAGES, *canned(base)]:
            url = f"{base}/yimao/{path}"
            fetch(url)  # warm-up
            runs = [fetch(url) for _ in range(args.repeat)]
            t = statistics.median(r[0] for r in runs)
            late = sorted({m for _, body in runs for m in re.findall(r"timed out: ([^<]+)", body)})
            failed = sorted({body[:8] for _, body in runs if body.startswith("HTTP ")})
            late += failed
            verdict = "met" if t <= 1 and not late else "MISSED"
            facets = f", timed out or failed: {'; '.join(late)}" if late else ""
            print(f"  /yimao/{path}: {t * 1000:,.0f} ms{facets} (goal ≤ 1 s: {verdict})")
    finally:
        server.terminate()
        server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
