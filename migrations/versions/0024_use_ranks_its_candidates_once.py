"""The 用神 of a reading ranks its candidates once.

``v_reading_use_computed``, the definition of ``reading_use`` (the 用神 of each reading with a
subject, and its 原神 忌神 仇神), was a union of two arms over ``v_reading_use_candidate``:
one for a visible line (joining ``v_reading_line``), one for a hidden spirit (joining
``v_reading_hidden_computed`` and the line over it). Each arm ranked the reading's
candidates with its window functions, so every write of a reading with a subject ranked
them twice: two thirds of the time of writing its 用神. The view is now one arm: the ranked
candidates joined to ``v_reading_line`` at the candidate's position (its own line, or the
飛神 over a hidden spirit); a hidden spirit's state comes from the rule tables
``v_reading_hidden_computed`` joins for it, and what only a visible line or only a 飛神
shows from rule tables too, each a LEFT JOIN that only such a candidate meets.
The rows are the same (compared on 100,000 random readings, half with a subject);
``reading_use`` is rewritten from the new definition, as for any change of a definition.

Revision ID: 0024
Revises: 0023
"""

from collections.abc import Sequence

from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VIEWS = (
    ViewSQL(
        "v_reading_use_computed",
        """
SELECT c.reading_id, c.subject, c.role, c.role_ordinal, ur.mark, c.relative, c.source,
       c.position, COALESCE(hz.stem, vl.stem) AS stem, COALESCE(hs.branch, vl.branch) AS branch,
       COALESCE(hs.element, vl.element) AS element, COALESCE(hn.ganzhi, vl.ganzhi) AS ganzhi,
       c.strength, COALESCE(bd.stage, vl.stage) AS stage,
       COALESCE(db.is_on, vl.day_on) AS day_on,
       COALESCE(db.generates, vl.day_generates) AS day_generates,
       COALESCE(db.helps, vl.day_helps) AS day_helps,
       COALESCE(db.controls, vl.day_controls) AS day_controls,
       COALESCE(db.combines, vl.day_combines) AS day_combines,
       COALESCE(mb.is_on, vl.month_on) AS month_on,
       COALESCE(mb.generates, vl.month_generates) AS month_generates,
       COALESCE(mb.helps, vl.month_helps) AS month_helps,
       COALESCE(mb.controls, vl.month_controls) AS month_controls,
       COALESCE(mb.combines, vl.month_combines) AS month_combines,
       c.is_void, c.is_month_break, COALESCE(bd.is_day_clash, vl.is_day_clash) AS is_day_clash,
       c.is_moving, lt.transforms AS transform, cg.name AS changed_ganzhi,
       fh.relation AS fly_relation, fg.name AS fly_ganzhi, fv.is_moving AS fly_is_moving,
       fd.is_day_clash AS fly_is_day_clash,
       CAST(mr.relative = c.relative AS INTEGER) AS month_stands_for,
       CAST(dr.relative = c.relative AS INTEGER) AS day_stands_for, c.candidate_count
FROM v_reading_use_candidate c
JOIN reading r ON r.id = c.reading_id
JOIN use_role ur ON ur.role = c.role
JOIN v_reading_line vl ON vl.reading_id = c.reading_id AND vl.position = c.position
JOIN hexagram h ON h.king_wen = r.primary_kw
JOIN trigram pt ON pt.name = h.palace
JOIN ganzhi d ON d.name = r.day_gz
JOIN branch mbr ON mbr.name = r.month_branch
JOIN branch dbr ON dbr.name = d.branch
JOIN element_relation mr ON mr.me = pt.element AND mr.other = mbr.element
JOIN element_relation dr ON dr.me = pt.element AND dr.other = dbr.element
-- a visible candidate: its line's transformations and changed line, as v_reading_line's
LEFT JOIN line_transform lt ON c.source <> 'hidden' AND lt.branch = vl.branch
  AND lt.changed_branch = vl.changed_branch AND lt.changed_void = vl.changed_is_void
  AND lt.changed_break = vl.changed_is_month_break
LEFT JOIN ganzhi cg ON c.source <> 'hidden' AND cg.name = vl.changed_ganzhi
-- a hidden candidate: its own state, and the line over it, its 飛神
LEFT JOIN hidden_spirit hs
  ON c.source = 'hidden' AND hs.king_wen = r.primary_kw AND hs.position = c.position
LEFT JOIN hexagram_pattern hp ON hp.king_wen = hs.king_wen
LEFT JOIN line_najia hn ON hn.king_wen = hp.pure_king_wen AND hn.position = hs.position
  AND hn.half_year = r.najia_half
LEFT JOIN ganzhi hz ON hz.name = hn.ganzhi
LEFT JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = hs.branch
LEFT JOIN branch_bearing db ON db.actor = d.branch AND db.branch = hs.branch
LEFT JOIN branch_bearing mb ON mb.actor = r.month_branch AND mb.branch = hs.branch
LEFT JOIN fly_hidden_relation fh ON fh.fly_element = vl.element AND fh.hidden_element = hs.element
LEFT JOIN ganzhi fg ON c.source = 'hidden' AND fg.name = vl.ganzhi
LEFT JOIN line_value fv ON c.source = 'hidden' AND fv.value = vl.value
LEFT JOIN branch_on_day fd ON c.source = 'hidden' AND fd.day_gz = r.day_gz
  AND fd.branch = vl.branch
WHERE c.rank = 1
""",
    ),
)
REPLACES = {
    "v_reading_use_computed": "0020",
}


def upgrade() -> None:
    migrating.replace_views(op, VIEWS, REPLACES)


def downgrade() -> None:
    migrating.restore_views(op, VIEWS, REPLACES)
