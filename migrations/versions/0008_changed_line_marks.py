"""The changed line's own marks: void, month break and day clash of a moving line's change.

v_reading_line gains changed_is_void, changed_is_month_break and changed_is_day_clash, read
from the same rule tables as the line's own flags (branch_on_day, branch_in_month) for the
changed line's branch; NULL for a still line. A chart marks 空 破 衝 on the changed lines
with them.

Revision ID: 0008
Revises: 0007
"""

from collections.abc import Sequence

from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VIEWS = (
    ViewSQL(
        "v_reading_line",
        """
SELECT r.id AS reading_id, rl.position, rl.value, lv.is_moving,
       ln.stem, l.branch, l.element, l.relative,
       ds.spirit, hsp.spirit AS hour_spirit, msb.spirits AS month_spirit,
       ng.general AS noble_general,
       l.is_world, l.is_response, l.is_between, l.mansion, mm.is_dusk AS is_dusk_mansion,
       bd.is_void, bm.is_month_break, bd.is_day_clash, bm.strength, bd.stage,
       cn.stem AS changed_stem, cl.branch AS changed_branch, cl.element AS changed_element,
       er.relative AS changed_relative, lt.transforms AS transform,
       ln.ganzhi, cn.ganzhi AS changed_ganzhi,
       db.is_on AS day_on, db.generates AS day_generates, db.helps AS day_helps,
       db.controls AS day_controls, db.combines AS day_combines,
       mb.is_on AS month_on, mb.generates AS month_generates, mb.helps AS month_helps,
       mb.controls AS month_controls, mb.combines AS month_combines,
       cbd.is_void AS changed_is_void, cbm.is_month_break AS changed_is_month_break,
       cbd.is_day_clash AS changed_is_day_clash
FROM reading r
LEFT JOIN ganzhi d ON d.name = r.day_gz
LEFT JOIN ganzhi hg ON hg.name = r.hour_gz
LEFT JOIN noble_hour nh ON nh.hour_branch = hg.branch
LEFT JOIN hexagram h ON h.king_wen = r.primary_kw
LEFT JOIN trigram pt ON pt.name = h.palace
CROSS JOIN reading_line rl
LEFT JOIN line_value lv ON lv.value = rl.value
LEFT JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.position = rl.position
LEFT JOIN line_najia ln
  ON ln.king_wen = r.primary_kw AND ln.position = rl.position AND ln.half_year = r.najia_half
LEFT JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = l.branch
LEFT JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = l.branch
LEFT JOIN branch_bearing db ON db.actor = d.branch AND db.branch = l.branch
LEFT JOIN branch_bearing mb ON mb.actor = r.month_branch AND mb.branch = l.branch
LEFT JOIN month_spirit_branch msb ON msb.month_branch = r.month_branch AND msb.branch = l.branch
LEFT JOIN month_mansion mm ON mm.month_branch = r.month_branch AND mm.mansion = l.mansion
LEFT JOIN day_spirit ds ON ds.day_stem = d.stem AND ds.position = rl.position
LEFT JOIN hour_spirit hsp
  ON hsp.day_stem = d.stem AND hsp.hour_branch = hg.branch AND hsp.position = rl.position
LEFT JOIN noble_general ng ON ng.day_stem = d.stem AND ng.half = nh.half AND ng.branch = l.branch
LEFT JOIN hexagram_line cl  -- the changed line, for moving lines only
  ON lv.is_moving = 1 AND cl.king_wen = r.changed_kw AND cl.position = rl.position
LEFT JOIN line_najia cn
  ON cn.king_wen = cl.king_wen AND cn.position = cl.position AND cn.half_year = r.najia_half
LEFT JOIN element_relation er ON er.me = pt.element AND er.other = cl.element
LEFT JOIN branch_on_day cbd ON cbd.day_gz = r.day_gz AND cbd.branch = cl.branch
LEFT JOIN branch_in_month cbm ON cbm.month_branch = r.month_branch AND cbm.branch = cl.branch
LEFT JOIN line_transform lt ON lt.branch = l.branch AND lt.changed_branch = cl.branch
  AND lt.changed_void = cbd.is_void AND lt.changed_break = cbm.is_month_break
WHERE rl.reading_id = r.id
""",
    ),
)
REPLACES = {
    "v_reading_line": "0006",
}


def upgrade() -> None:
    migrating.replace_views(op, VIEWS, REPLACES)


def downgrade() -> None:
    migrating.restore_views(op, VIEWS, REPLACES)
