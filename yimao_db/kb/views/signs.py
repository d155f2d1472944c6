"""The signs of a stored reading (v_reading_sign): every judgment of 卷一 that fires for it.

The view is a union of one arm per family, each written in its family's declaration in
``FAMILIES`` (:mod:`yimao_db.kb.rules.signs`), in the registry's order. Each arm builds
the family's key for the reading (or for each of its lines) by joining rule tables, and
joins the family table on that key: the rows it finds are the signs that fire. Every arm
starts from ``reading``, so a query for one reading reads a few dozen index entries; the
attributes of each sign come from ``sign``.
"""

from __future__ import annotations

from yimao_db.kb.rules.signs import FAMILIES
from yimao_db.kb.views.base import POSITION, View, col

# one arm per family, as its declaration writes it
UNION = "\n  UNION ALL\n".join(f.select(first=i == 0) for i, f in enumerate(FAMILIES))

V_READING_SIGN = View(
    "v_reading_sign",
    "readings",
    "Every judgment of 卷一 that fires for a reading (§7–§10): one row per sign and line it "
    "fires on (position NULL for a sign about the whole reading), with the sign's subject, "
    "polarity, weight and passage from the table sign. docs/signs.md lists the signs.",
    (
        col("reading_id", "The reading", "FK reading.id"),
        col("sign", "The sign, e.g. 世空", "FK sign.name"),
        col(
            "position",
            "The line it fires on; NULL for a sign about the whole reading",
            POSITION + " or NULL",
        ),
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
    f"""
SELECT x.reading_id, x.sign, x.position, s.subject, s.polarity, s.weight, s.passage, s.basis,
       s.meaning, s.meaning_zh, s.cancels
FROM (
{UNION}
) x
JOIN sign s ON s.name = x.sign
""",
)

VIEWS = (V_READING_SIGN,)
