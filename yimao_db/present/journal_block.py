"""The journal under a chart: tags, the outcome and the notes, oldest first."""

from __future__ import annotations

from yimao_db.journaling import Journal
from yimao_db.present.table import terminal_layout


def journal_lines(journal: Journal) -> list[str]:
    """The lines to print under the chart (none for a reading with an empty journal)."""
    lines: list[str] = []
    if journal.tags:
        lines.append("Tags: " + ", ".join(journal.tags))
    o = journal.outcome
    if o is not None:
        lines.append(f"Outcome: {o.verdict} on {o.happened_on}" + (f": {o.note}" if o.note else ""))
    if journal.notes:
        lines.append("Notes:")
        lines += [f"  {n.noted_at[:16].replace('T', ' ')}  {n.note}" for n in journal.notes]
    return ["", *lines] if lines else []


def render_journal(journal: Journal) -> str:
    """:func:`journal_lines` as terminal-safe text (notes are stored verbatim)."""
    return terminal_layout(journal_lines(journal))
