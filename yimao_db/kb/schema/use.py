"""用神: the subjects a reading may be asked about and the rule that picks the line standing
for each (:mod:`yimao_db.kb.rules.use`; docs/use.md).

``subject`` lists what may be asked about; ``matter_subject`` the subject each matter of §9.5
implies. The choice is data: ``use_rule`` states it step by step, ``use_role`` and
``relative_role`` give the chain, ``use_candidate_rank`` ranks every key a candidate line
can have, ``use_loss_reason`` says why a candidate lost, ``fly_hidden_relation`` names how
a 飛神 stands to its 伏神. ``v_reading_use_candidate`` and ``v_reading_use`` join them.
"""

from __future__ import annotations

from sqlalchemy import ForeignKeyConstraint, Integer, String, Text

from yimao_db.kb.rules.use import CRITERIA, ROLES, SUBJECT_KINDS
from yimao_db.kb.schema.base import between, boolean, col, fk, key, one_of, ref, table

SECTION = "rules"
CRITERIA_ALL = (*CRITERIA, "position")

subject = table(
    "subject",
    "What a reading may be asked about (§6.2–6.4, §6.7, §8.14–8.15): the images of the six "
    "relatives (book), the relatives themselves, the asker 世 and the other party 應, and the "
    "common subjects practitioners ask about (standard). Names resolve through name_alias "
    "(kind subject).",
    col("name", String(8), primary_key=True, comment="Canonical name, e.g. 妻財, 貨貝, 世, 考試"),
    col(
        "kind",
        String(8),
        comment="relative (its 用神 is a line of the relative), world or response",
    ),
    col(
        "relative",
        String(2),
        fk("relative.name"),
        nullable=True,
        comment="The relative whose line stands for it; NULL for world and response",
    ),
    col(
        "place",
        String(2),
        nullable=True,
        comment="世 or 應: the place whose line is the 用神 (line_place.place); NULL otherwise",
    ),
    col("gloss", Text, comment="What it is, in English"),
    col(
        "symbol",
        String(8),
        nullable=True,
        comment="For a book image: its relative_symbol row (with relative); NULL otherwise",
    ),
    col("reason", Text, nullable=True, comment="Why, for a decision"),
    one_of("kind", SUBJECT_KINDS),
    one_of("place", ("世", "應")),
    ForeignKeyConstraint(
        ["relative", "symbol"], ["relative_symbol.relative", "relative_symbol.symbol"]
    ),
    section=SECTION,
    cited=True,
)

matter_subject = table(
    "matter_subject",
    "The subjects each matter of §9.5 asks about; the default one is taken when a reading "
    "names its matter and no subject.",
    key("matter", "matter.name", "功名 財利 獄訟 or 憂患", 2),
    key("subject", "subject.name", "A subject of the matter", 8),
    col("is_default", Integer, comment="1 for the subject the matter implies"),
    col("reason", Text, nullable=True, comment="Why, for a decision"),
    boolean("is_default"),
    section=SECTION,
    cited=True,
)

use_role = table(
    "use_role",
    "The four roles around a subject (§6.5–6.6 commentary): 用神, 原神 (generates it), 忌神 "
    "(controls it), 仇神 (controls the 原神).",
    col("role", String(2), primary_key=True, comment="用神 原神 忌神 or 仇神"),
    col("ordinal", Integer, unique=True, comment="1..4 in that order"),
    col("mark", String(1), comment="The one-character mark a chart shows: 用 原 忌 仇"),
    col("gloss", Text, comment="What the role is"),
    col(
        "by_place",
        Integer,
        comment="1 if a world/response subject fixes this role to its line (the 用神)",
    ),
    one_of("role", ROLES),
    boolean("by_place"),
    section=SECTION,
    cited=True,
)

relative_role = table(
    "relative_role",
    "The chain: for a 用神 of each relative, the relative playing each role (the five-element "
    "cycles, §5.5–5.6).",
    key("use_relative", "relative.name", "The 用神's relative", 2),
    key("role", "use_role.role", "The role", 2),
    ref("relative", "relative.name", "The relative playing it", 2),
    section=SECTION,
    cited=True,
)

use_candidate_rank = table(
    "use_candidate_rank",
    "The standing of a candidate line for a role, by its key (total over the key): moving "
    "over still, 世 or 應 over neither, 旺 相 休 囚 死, sound over void or broken (docs/use.md). "
    "The view orders candidates by rank, then by position (the lower line first).",
    col("is_moving", Integer, primary_key=True, autoincrement=False, comment="1 if it moves"),
    col("is_world", Integer, primary_key=True, autoincrement=False, comment="1 on the world line"),
    col(
        "is_response",
        Integer,
        primary_key=True,
        autoincrement=False,
        comment="1 on the response line",
    ),
    key("strength", "strength.name", "Its strength in the month", 1),
    col("is_void", Integer, primary_key=True, autoincrement=False, comment="1 if void"),
    col(
        "is_month_break",
        Integer,
        primary_key=True,
        autoincrement=False,
        comment="1 if month-broken",
    ),
    col("rank", Integer, comment="1 = best; equal standing, equal rank"),
    boolean("is_moving"),
    boolean("is_world"),
    boolean("is_response"),
    boolean("is_void"),
    boolean("is_month_break"),
    section=SECTION,
    cited=True,
    sqlite_with_rowid=False,
)

use_loss_reason = table(
    "use_loss_reason",
    "Why a candidate lost to the chosen one: the first criterion on which their ranks "
    "(use_candidate_rank.rank) differ, for every pair with the chosen one's rank first.",
    col("winner_rank", Integer, primary_key=True, autoincrement=False, comment="The chosen rank"),
    col("loser_rank", Integer, primary_key=True, autoincrement=False, comment="The loser's rank"),
    col("criterion", String(16), comment="moving, world_response, strength, sound or position"),
    col("reason", Text, comment="The reason in words"),
    one_of("criterion", CRITERIA_ALL),
    section=SECTION,
    cited=True,
    sqlite_with_rowid=False,
)

fly_hidden_relation = table(
    "fly_hidden_relation",
    "How a 飛神 stands to the 伏神 under it: 飛生伏 伏生飛 飛克伏 伏克飛 or 比和 (standard).",
    key("fly_element", "element.name", "The 飛神's element"),
    key("hidden_element", "element.name", "The 伏神's element"),
    col("relation", String(4), comment="飛生伏 伏生飛 飛克伏 伏克飛 or 比和"),
    section=SECTION,
    cited=True,
)

use_rule = table(
    "use_rule",
    "The rule choosing the 用神 and its chain, one row per step, so the rule itself is "
    "readable from the database (docs/use.md).",
    col("step", String(24), primary_key=True, comment="The step's name"),
    col("ordinal", Integer, unique=True, comment="Its order"),
    col("text", Text, comment="What the step does"),
    col("reason", Text, nullable=True, comment="Why, for a decision"),
    between("ordinal", 1, 99),
    section=SECTION,
    cited=True,
)

question_parties = table(
    "question_parties",
    "Whether a question is between two parties 人己之佔, for which world against response is "
    "read (§8.15; a decision, yimao_db.kb.rules.questions): a lawsuit, or a subject of the "
    "world or the response line. One row for every matter and subject a reading can store, "
    "'' for none; a view joins it on COALESCE(r.matter, '') and COALESCE(r.about, '').",
    col("matter", String(2), primary_key=True, comment="A matter of §9.5, or '' for none"),
    col("about", String(8), primary_key=True, comment="A subject, or '' for none"),
    col("two_parties", Integer, comment="1 if the question is between two parties"),
    col("reason", Text, comment="Why, in words"),
    boolean("two_parties"),
    section=SECTION,
    cited=True,
    sqlite_with_rowid=False,
)

question_between = table(
    "question_between",
    "What a question's between lines stand for (§10.2–10.3; a decision, "
    "yimao_db.kb.rules.questions): a helper for the matters §10.3 names (詞訟, the matter "
    "獄訟: the witness 中證), an obstacle otherwise. One row for every matter a reading can "
    "store, '' for none.",
    col("matter", String(2), primary_key=True, comment="A matter of §9.5, or '' for none"),
    col("between_use", String(8), comment="obstacle or helper (between_use.use)"),
    col("domain", String(4), nullable=True, comment="The helper's domain in between_use (詞訟)"),
    col("reason", Text, comment="Why, in words"),
    one_of("between_use", ("obstacle", "helper")),
    ForeignKeyConstraint(["between_use", "domain"], ["between_use.use", "between_use.domain"]),
    section=SECTION,
    cited=True,
)
