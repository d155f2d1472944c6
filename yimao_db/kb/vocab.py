"""Vocabulary shared by the rules, the schema and the output: named once here.

The canonical characters of the book's own vocabularies (stems, branches, hexagrams, …)
live in ``seed/data/*.tsv`` and the tables seeded from them; this module holds the few
words the code itself must spell.
"""

from __future__ import annotations

# The two halves of the year for the seasonal najia (§4.3): from the winter solstice to
# the summer solstice, and from the summer solstice to the winter solstice.
AFTER_WINTER = "冬至後"
AFTER_SUMMER = "夏至後"
HALF_YEARS = (AFTER_WINTER, AFTER_SUMMER)

# Which najia table a reading uses: the fixed table, or the seasonal 二老時遷 (§4.3).
FIXED = "fixed"
SEASONAL = "seasonal"
NAJIA_VARIANTS = (FIXED, SEASONAL)

# How a line is drawn: a solid bar for yang, a broken bar for yin, and the marks of the
# moving lines (○ old yang 9, ✕ old yin 6).
YANG_BAR = "━━━━━━━"
YIN_BAR = "━━━ ━━━"
MOVING_MARKS = {9: "○", 6: "✕"}

# What happened after a reading (應驗), as the journal records it; ``none`` in a filter
# means a reading with no outcome recorded.
VERDICTS = ("hit", "miss", "partial")

# The signs (yimao_db.rules.signs): their polarity, where a chart lists them, what they speak
# of, and the places a line holds in its hexagram for them.
AUSPICIOUS, INAUSPICIOUS, NEUTRAL = "吉", "凶", "中"
SIGN_POLARITIES = (AUSPICIOUS, INAUSPICIOUS, NEUTRAL)
SIGN_GROUPS = ("world", "bodies", "between", "lines")
SIGN_SUBJECTS = (
    *("世", "應", "世應", "卦身", "世身", "間爻"),
    *("line", "hexagram", "spirit", "star", "mansion"),
)
SIGN_SUBJECT_GROUP = {  # where a chart lists the signs about each subject
    **dict.fromkeys(("世", "應", "世應", "hexagram"), "world"),
    **dict.fromkeys(("卦身", "世身"), "bodies"),
    "間爻": "between",
    **dict.fromkeys(("line", "spirit", "star", "mansion"), "lines"),
}
LINE_PLACES = ("世", "應", "間", "卦身", "世身", "身前", "身後")  # 身前/身後: after/before the 世身
