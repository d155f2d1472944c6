"""The signs of a stored reading (v_reading_sign): every judgment of 卷一 that fires for it.

The definition (v_reading_sign_computed) is a union of one arm per family, each written in
its family's declaration in ``FAMILIES`` (:mod:`yimao_db.kb.rules.signs`), in the registry's
order. Each arm builds the family's key for the reading (or for each of its lines) by
joining rule tables, and joins the family table on that key: the rows it finds are the signs
that fire. Every arm starts from ``reading``, so a query for one reading reads a few dozen
index entries. The table ``reading_sign`` stores its rows for every reading
(:mod:`yimao_db.kb.derived`), and the public view joins them with ``sign`` for each sign's
attributes: a count of the signs of every reading reads one index instead of working out
every arm for every reading.
"""

from __future__ import annotations

from yimao_db.kb.rules.signs import FAMILIES
from yimao_db.kb.views.base import POSITION, View, col

# one arm per family, as its declaration writes it
UNION = "\n  UNION ALL\n".join(f.select(first=i == 0) for i, f in enumerate(FAMILIES))

V_READING_SIGN_COMPUTED = View(
    "v_reading_sign_computed",
    "readings",
    "The definition of v_reading_sign: the signs that fire for each reading, one arm per "
    "family, each joining rule tables to build the family's key. The table reading_sign "
    "stores its rows for every reading (written with the reading and when its subject "
    "changes; yimao check compares the two); v_reading_sign reads the table.",
    (
        col("reading_id", "The reading", "FK reading.id"),
        col("sign", "The sign, e.g. 世空", "FK sign.name"),
        col(
            "position",
            "The line it fires on; NULL for a sign about the whole reading",
            POSITION + " or NULL",
        ),
    ),
    f"""
SELECT x.reading_id, x.sign, x.position
FROM (
{UNION}
) x
""",
    public=False,
)

V_READING_SIGN = View(
    "v_reading_sign",
    "readings",
    "Every judgment of 卷一 that fires for a reading (§7–§10): one row per sign and line it "
    "fires on (position NULL for a sign about the whole reading), with the sign's subject, "
    "polarity, weight and passage from the table sign. docs/signs.md lists the signs. "
    "Stored per reading in reading_sign, the rows of v_reading_sign_computed.",
    (
        *V_READING_SIGN_COMPUTED.columns,
        col(
            "subject",
            "What it speaks of: 世 應 世應 卦身 世身 間爻 line hexagram spirit star mansion",
        ),
        col("polarity", "吉 auspicious, 凶 inauspicious, 中 neither", "吉/凶/中"),
        col(
            "weight",
            "How much it weighs, higher more: 5 世應, 4 卦身, 3 世身, 2 lines and day "
            "spirits, 1 stars and mansions (§9.6)",
            "1..6",
        ),
        col("passage", "The passage it rests on §chapter.passage", "FK source_passage.id or NULL"),
        col("basis", "book, standard or decision (docs/signs.md)", "book/standard/decision"),
        col("meaning", "What it means, in English (our words)"),
        col("meaning_zh", "What it means, in Chinese (our words)"),
        col(
            "cancels",
            "What it cancels (a sign, or a spirit's good or harm) when it neither helps nor "
            "harms itself; NULL otherwise",
            "text or NULL",
        ),
    ),
    # the sign's name from `sign`, not the stored row: grouped by it, SQLite reads `sign` in
    # order and counts each sign's range of reading_sign's index, where grouping the stored
    # column sorted every row or looked up the sign of each (3.8-4.6 x the time of reading
    # every line once at 100,000 readings, against 9.6 x)
    """
SELECT x.reading_id, s.name AS sign, x.position, s.subject, s.polarity, s.weight, s.passage,
       s.basis, s.meaning, s.meaning_zh, s.cancels
FROM reading_sign x
JOIN sign s ON s.name = x.sign
""",
)

V_SIGN_COUNT = View(
    "v_sign_count",
    "readings",
    "How often each sign fired over every stored reading, and in how many readings: the "
    "counts of v_reading_sign grouped by sign, kept with every write (table sign_count; "
    "yimao check counts them again), with the sign's attributes. A sign that fired nowhere "
    "has no row.",
    (
        col("sign", "The sign, e.g. 世空", "FK sign.name"),
        *(c for c in V_READING_SIGN.columns if c.name in ("subject", "polarity", "weight")),
        *(c for c in V_READING_SIGN.columns if c.name in ("passage", "basis")),
        col("fired", "How many times it fired: its rows in v_reading_sign", "1.."),
        col("readings", "In how many readings it fired", "1.."),
    ),
    """
SELECT s.name AS sign, s.subject, s.polarity, s.weight, s.passage, s.basis, c.fired,
       c.readings
FROM sign_count c
JOIN sign s ON s.name = c.sign
""",
)

VIEWS = (V_READING_SIGN_COMPUTED, V_READING_SIGN, V_SIGN_COUNT)
