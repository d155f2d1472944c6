"""The judgments 卷一 makes about a reading, as signs, and their families: each sign's
condition and each family's declaration, in one place.

A sign is a judgment that fires for a reading — on one of its lines (``position``) or on the
whole reading. Each belongs to a *family*: the rule table its condition is stored in, keyed
by the few facts the condition reads (a line's place, value, void, …). For every family the
seed enumerates all keys, asks each sign's condition, and stores a row for every key where
the sign fires; the view ``v_reading_sign_computed`` (whose rows ``v_reading_sign`` stores)
builds the same keys for a reading by joins and looks them up. The arms that key a line by
what it is at the cast (its value, void, 月破, 日衝, strength, stage, day spirit, relative,
the branch it changes into) read those facts from the reading's stored lines,
``reading_line_chart``, which a write stores before the signs, instead of working them out
again from the rule tables: half the lookups of such an arm.
:mod:`yimao_db.kb.expected.signs` builds the keys from the rules instead: the oracle the
tests and ``yimao check`` compare the view with.

``SIGNS`` is the catalogue; ``FAMILIES``, at the end, the registry: one declaration per
family (:class:`~yimao_db.kb.rules.sign_family.Family`) of its key's columns and their
domains, its arm of the view and the oracle's key builder. The tables, the view, the rows,
the oracle's loop, the invariants' list of family tables and the families table of
docs/signs.md are made from it.

Three families hold requirements instead of enumerated keys, because their conditions look
at sets of branches (三合 and 三刑 around the world, §8.14) or at the matter asked about
(§9.5): :func:`group_rules`, :func:`matter_rules`, :func:`relief_rules`.

Weights (``Weight``): the book ranks the world line over the 卦身 over the 世身 (§9.6), the
day and month spirits over the hour spirits and the noble's generals (§7.2, §7.12), and the
stars and mansions after the world's own omens (§8.13 commentary). A sign weighs what its
subject weighs; higher weighs more.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import asdict, astuple, dataclass
from functools import cache
from typing import Any

from yimao_db.kb.facts import facts
from yimao_db.kb.rules import (
    bodies,
    dusk,
    lines,
    lodges,
    matters,
    questions,
    shensha,
    spirits,
    stages,
    transforms,
    use,
)
from yimao_db.kb.rules.day_month import CONTROLS_ME, GENERATES_ME, SAME
from yimao_db.kb.rules.elements import relation
from yimao_db.kb.rules.questions import HELPER, OBSTACLE
from yimao_db.kb.rules.relations import clash, harmony, punishments, triads
from yimao_db.kb.rules.sign_family import (
    FLAG,
    FLAG_VALUES,
    INT,
    TEXT,
    Column,
    Domain,
    Family,
    Key,
    LineFacts,
    Place,
    ReadingFacts,
    at_stored_lodge,
    flag,
    on_world,
    per_line,
    per_place,
    whole,
)
from yimao_db.kb.vocab import (
    AUSPICIOUS,
    ELEMENT_RELATIONS,
    INAUSPICIOUS,
    LINE_PLACES,
    NEUTRAL,
    SIGN_GROUPS,
    SIGN_POLARITIES,
    SIGN_SUBJECT_GROUP,
    SIGN_SUBJECTS,
)

# --- vocabulary ---------------------------------------------------------------------------

POLARITIES = SIGN_POLARITIES
BOOK, STANDARD, DECISION = "book", "standard", "decision"

GROUPS = SIGN_GROUPS  # where the chart lists a sign
USE_GROUP, WORLD_GROUP, BODIES, BETWEEN, LINES = GROUPS
SUBJECTS = SIGN_SUBJECTS  # what a sign speaks of

# the places a line holds in its hexagram (table line_place)
PLACES = LINE_PLACES
WORLD, RESPONSE, BETWEEN_LINE, GUA_SHEN, SHI_SHEN, AHEAD, BEHIND = PLACES

GHOST, WEALTH, OFFSPRING = "官鬼", "妻財", "子孫"
TOMB = "墓"
STRONG = ("旺", "相")  # a line the month makes strong
GENERATED, HELPED, CONTROLLED, DRAINED = "相", "旺", "死", "休"  # the month's bearing on a line
I_GENERATE = "i_generate"

# signs whose names the requirement tables below use too
TRIAD_SUPPORT, PUNISHMENT_WEAR = "三合生有", "三刑自敝"
MATTER_SIGNS = {
    (GUA_SHEN, matters.WANT): "卦身得喜",
    (GUA_SHEN, matters.FEAR): "卦身逢忌",
    (SHI_SHEN, matters.WANT): "世身得喜",
    (SHI_SHEN, matters.FEAR): "世身逢忌",
}
RELIEF_SIGNS = {GUA_SHEN: "卦身空安", SHI_SHEN: "世身空安"}

# the lodges of the sun and the moon (§8.12)
SUN_LODGE, MOON_LODGE, ALL_GOOD = "日纏", "月麗", "盡善"
LODGE_REASON = (
    "§8.12 calls the sun in its 垣 good and the moon in its 次 auspicious, beside the 昏中 "
    "and 旦中 of a line's mansion; whose lodge it means the book does not say, and we read "
    "it as the line's mansion"
)

# the sources a 三合 or 三刑 around the world may draw its other branches from (§8.14)
SOURCES = ("day", "month", "moving", "changed")


@dataclass(frozen=True)
class Weight:
    weight: int  # higher weighs more
    name: str
    gloss: str
    passage: str | None
    basis: str


WEIGHTS = (
    Weight(
        6,
        "用神",
        "the line the question is about, with its 原神 忌神 仇神: read before all else",
        "6.7",
        DECISION,
    ),
    Weight(
        5,
        "世應",
        "the world line, first (§9.6, book); with it, by decision, the response and the world "
        "against the response, which the book reads only as the world's partner (§8.14–8.15)",
        "9.6",
        DECISION,
    ),
    Weight(4, "卦身", "the hexagram body: after the world line", "9.6", BOOK),
    Weight(3, "世身", "the world body: after the 卦身", "9.6", BOOK),
    Weight(
        2,
        "爻",
        "the other lines, the between lines, the hexagram and the day spirits, which rule "
        "with the month spirits",
        "7.2",
        DECISION,
    ),
    Weight(
        1,
        "星宿",
        "the five stars and the mansions (經星), which the §8.13 commentary ranks after the "
        "world's own omens",
        "8.13",
        BOOK,
    ),
)
SUBJECT_GROUP = SIGN_SUBJECT_GROUP  # where a chart lists the signs about each subject
SUBJECT_WEIGHT = {
    "用神": 6,
    "世": 5,
    "應": 5,
    "世應": 5,
    "卦身": 4,
    "世身": 3,
    "間爻": 2,
    "line": 2,
    "hexagram": 2,
    "spirit": 2,
    "star": 1,
    "mansion": 1,
}


# --- the key the conditions of hexagram_sign read -------------------------------------------


@dataclass(frozen=True)
class HexagramKey:
    """hexagram_sign: facts of a primary hexagram (the table is keyed by its King Wen number)."""

    gua_shen_lines: int  # how many lines hold the 卦身
    generation: int  # 0 本宮 .. 7 歸魂


# --- the signs ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Sign:
    name: str  # canonical traditional characters, the key
    table: str  # the rule table its condition is stored in
    subject: str
    polarity: str
    passage: str | None
    basis: str
    condition: str  # the condition, in words
    meaning: str  # what it means, in English
    meaning_zh: str  # what it means, in Chinese
    when: Callable[[Any], bool] | None = None  # the condition on a key of its table
    cancels: str | None = None  # the sign or the spirit's force it cancels (polarity 中)

    @property
    def weight(self) -> int:
        return SUBJECT_WEIGHT[self.subject]

    @property
    def group(self) -> str:
        return SUBJECT_GROUP[self.subject]


def _moving(value: int) -> bool:
    return lines.is_moving(value)


def _still(value: int) -> bool:
    return not lines.is_moving(value)


def _day_or_month(k: Any, day: str, month: str) -> bool:
    """The day's element bears on the line as ``day``, or the month makes it ``month``."""
    return bool(k.day_relation == day or k.strength == month)


# the reasons the decisions below share
SOLE_REASON = (
    "the book says only that the stars' omens are read when a line moves alone, 必以獨發 "
    "(§8.7 commentary); that the line is the world line is an inference from the stars and "
    "mansions holding the world (§8.10–8.11)"
)
NATURE_REASON = (
    "book for 白虎 alone, which the book calls 凶; 朱雀 玄武 騰蛇 are 凶 by the decision of "
    "spirit_nature"
)
WORLD_STRONG_REASON = "not while the world line is 旺 or 相 in the month, §9.4 commentary"
SOUND_REASON = (
    "only on a sound body, §9.5 先宜無病: still, neither void, broken nor clashed (病 read as "
    "the conditions §9.3–9.4 name)"
)
SCATTER_REASON = (
    "散 and 衝亡 read as the §9.3 commentary's 動逢衝散: a moving line clashed by the day"
)


def _harms(k: Any) -> bool:
    """The 世身's conditions harm only while the world line is weak (§9.4 commentary)."""
    return not bodies.harmless(k.world_strength)


USE, SOURCE_ROLE, TABOO = use.USE, use.SOURCE, use.TABOO
HIDDEN_SOURCE = use.HIDDEN


def _use_strong(k: Any) -> bool:
    """用神旺: 旺 or 相 in the month, or the day generates or helps it (standard)."""
    return k.strength in STRONG or bool(k.day_generates or k.day_helps)


def _nature(spirit: str) -> str:
    return spirits.natures()[spirit]


SIGNS: tuple[Sign, ...] = (
    # -- the world and the response (§8.13–8.15) ---------------------------------------------
    Sign("世空", "line_sign", "世", INAUSPICIOUS, "8.14", BOOK,
         "the world line is void 旬空",
         "what I seek I cannot get", "世爻旬空，所求難得",
         lambda k: k.place == WORLD and k.is_void),
    Sign("世破", "line_sign", "世", INAUSPICIOUS, "8.14", BOOK,
         "the world line is broken by the month 月破",
         "ruin of my side", "世爻月破，己方敗亡",
         lambda k: k.place == WORLD and k.is_month_break),
    Sign("世動", "line_sign", "世", NEUTRAL, "8.14", BOOK,
         "the world line moves (6 or 9)",
         "the start of a change on my side", "世爻發動，變更之端",
         lambda k: k.place == WORLD and _moving(k.value)),
    Sign("世衝", "line_sign", "世", NEUTRAL, "8.14", BOOK,
         "the day clashes the world line 日衝",
         "my side is shaken into change", "世爻逢日衝，己方生變",
         lambda k: k.place == WORLD and k.is_day_clash),
    Sign("世化進神", "change_sign", "世", AUSPICIOUS, "8.14", BOOK,
         "the world line moves and changes forward within its element 化進神",
         "little grows into much", "世化進神，由少而多",
         lambda k: k.is_world and transforms.advances(k.branch, k.changed_branch)),
    Sign("世化退神", "change_sign", "世", INAUSPICIOUS, "8.14", BOOK,
         "the world line moves and changes backward within its element 化退神",
         "plenty thins out", "世化退神，由厚轉薄",
         lambda k: k.is_world and transforms.retreats(k.branch, k.changed_branch)),
    Sign("應空", "line_sign", "應", INAUSPICIOUS, "8.14", BOOK,
         "the response line is void 旬空 (the response sunken 應陷)",
         "the other side will not come", "應爻旬空，彼方不來",
         lambda k: k.place == RESPONSE and k.is_void),
    Sign("應破", "line_sign", "應", INAUSPICIOUS, "8.14", DECISION,
         "the response line is broken by the month 月破; the book names only the sunken "
         "response, and a broken one fails the same way",
         "the other side fails", "應爻月破，彼方失陷",
         lambda k: k.place == RESPONSE and k.is_month_break),
    Sign("世克應", "world_response_sign", "世應", AUSPICIOUS, "8.15", BOOK,
         "in a question between two parties (question_parties), the world line's element "
         "controls the response line's",
         "I prevail over the other", "世克應，我勝彼",
         lambda k: k.two_parties and k.relation == "i_control"),
    Sign("應克世", "world_response_sign", "世應", INAUSPICIOUS, "8.15", BOOK,
         "in a question between two parties (question_parties), the response line's element "
         "controls the world line's",
         "the other prevails over me", "應克世，彼勝我",
         lambda k: k.two_parties and k.relation == CONTROLS_ME),
    Sign("世生應", "world_response_sign", "世應", INAUSPICIOUS, "8.15", BOOK,
         "in a question between two parties (question_parties), the world line's element "
         "generates the response line's",
         "I give myself away to the other", "世生應，我往就彼",
         lambda k: k.two_parties and k.relation == I_GENERATE),
    Sign("應生世", "world_response_sign", "世應", AUSPICIOUS, "8.15", BOOK,
         "in a question between two parties (question_parties), the response line's element "
         "generates the world line's",
         "the other comes to give to me", "應生世，彼來就我",
         lambda k: k.two_parties and k.relation == GENERATES_ME),
    Sign("隨官入墓", "relative_sign", "世", INAUSPICIOUS, "8.13", DECISION,
         "the world line holds 官鬼 and its element is at 墓 on the day (日墓); the book "
         "names the omen without its condition",
         "the self follows the ghost into the tomb", "世持官鬼而墓於日，身隨鬼入墓",
         lambda k: k.is_world and k.relative == GHOST and k.stage == TOMB),
    Sign("隨官化墓", "change_sign", "世", INAUSPICIOUS, "8.13", DECISION,
         "the world line holds 官鬼, moves and changes into the 墓 of its element (化墓)",
         "the self follows the ghost into the tomb, by its own move", "世持官鬼動而化墓",
         lambda k: k.is_world and k.relative == GHOST
         and transforms.to_tomb(k.branch, k.changed_branch)),
    Sign("助鬼傷身", "relative_sign", "世", INAUSPICIOUS, "8.13", DECISION,
         "the world line holds 妻財 and moves: a moving 妻財 generates the 官鬼 (財動生鬼, "
         "§6.5), which controls the self",
         "I feed what harms me", "世持財動，生鬼傷身",
         lambda k: k.is_world and k.relative == WEALTH and _moving(k.value)),
    Sign("合處逢衝", "bearing_sign", "世", INAUSPICIOUS, "8.13", DECISION,
         "the world line is combined 六合 by the day and broken by the month, or combined "
         "by the month and clashed by the day",
         "what came together is torn apart", "世爻一合一衝，合而復散",
         lambda k: k.place == WORLD and ((k.day_combines and k.is_month_break)
                                         or (k.month_combines and k.is_day_clash))),
    Sign(TRIAD_SUPPORT, "world_group_sign", "世", AUSPICIOUS, "8.14", BOOK,
         "the world line is void and the day, the month and the moving lines hold the other "
         "two branches of its 三合",
         "something comes out of nothing once the void passes", "世爻旬空得三合拱扶，無而生有"),
    Sign(PUNISHMENT_WEAR, "world_group_sign", "世", INAUSPICIOUS, "8.14", DECISION,
         "the world line moves and the day, the month and the changed lines complete the "
         "三刑 it belongs to (寅巳申, 丑戌未, 子卯; for 辰午酉亥 its own branch again)",
         "strength wears itself out", "世動逢三刑，強而自敝"),
    Sign("獨發", "sole_sign", "star", NEUTRAL, "8.7", DECISION,
         "the world line is the only moving line: the five stars and the mansions speak "
         f"({SOLE_REASON})",
         "the world moves alone; the star descending on it shows", "世爻獨發，星宿乃驗",
         lambda k: k.is_sole),
    Sign("遊魂", "hexagram_sign", "hexagram", NEUTRAL, "8.5", BOOK,
         "the primary hexagram is the 遊魂 of its palace",
         "change", "遊魂主變",
         lambda k: k.generation == 6),
    Sign("歸魂", "hexagram_sign", "hexagram", NEUTRAL, "8.5", BOOK,
         "the primary hexagram is the 歸魂 of its palace",
         "return", "歸魂主復",
         lambda k: k.generation == 7),
    # -- the two bodies (§9.1–9.5) -------------------------------------------------------------
    Sign("卦身缺", "hexagram_sign", "卦身", INAUSPICIOUS, "9.2", BOOK,
         "no line's branch is the 卦身 branch",
         "the matter has no master, like a mind with nothing to hold to", "卦身不現，心無所主",
         lambda k: k.gua_shen_lines == 0),
    Sign("卦身重", "hexagram_sign", "卦身", INAUSPICIOUS, "9.3", BOOK,
         "two or more lines hold the 卦身 branch",
         "a divided mind", "一卦兩身，心有二念",
         lambda k: k.gua_shen_lines >= 2),
    Sign("卦身空", "line_sign", "卦身", INAUSPICIOUS, "9.3", BOOK,
         "a line holding the 卦身 is void 旬空",
         "hesitation between going on and holding back", "卦身空，猶豫進退",
         lambda k: k.place == GUA_SHEN and k.is_void),
    Sign("卦身破", "line_sign", "卦身", INAUSPICIOUS, "9.3", BOOK,
         "a line holding the 卦身 is broken by the month 月破",
         "hesitation between going on and holding back", "卦身破，猶豫進退",
         lambda k: k.place == GUA_SHEN and k.is_month_break),
    Sign("卦身動", "line_sign", "卦身", NEUTRAL, "9.3", BOOK,
         "a line holding the 卦身 moves",
         "change and unease", "卦身動，變更惶惑",
         lambda k: k.place == GUA_SHEN and _moving(k.value)),
    Sign("卦身衝", "line_sign", "卦身", NEUTRAL, "9.3", DECISION,
         "the day clashes a still line holding the 卦身 日衝 (the commentary's 暗衝: one "
         "fact, read as the text reads it; a moving 卦身 clashed by the day is 卦身衝亡)",
         "change and unease", "卦身逢衝，變更惶惑",
         lambda k: k.place == GUA_SHEN and _still(k.value) and k.is_day_clash),
    Sign("卦身衝亡", "line_sign", "卦身", INAUSPICIOUS, "9.3", DECISION,
         f"a moving line holding the 卦身 is clashed by the day ({SCATTER_REASON})",
         "every plan comes to nothing", "卦身動而逢衝，千慮皆失",
         lambda k: k.place == GUA_SHEN and _moving(k.value) and k.is_day_clash),
    Sign("卦身靜", "line_sign", "卦身", AUSPICIOUS, "9.2", DECISION,
         "a line holding the 卦身 is still and neither void, broken nor clashed (rest read "
         "as untouched by any of the conditions §9.3 names)",
         "an open, easy mind", "卦身安靜，坦懷",
         lambda k: k.place == GUA_SHEN and _still(k.value)
         and not (k.is_void or k.is_month_break or k.is_day_clash)),
    Sign("卦身合", "bearing_sign", "卦身", AUSPICIOUS, "9.2", DECISION,
         "the day or the month combines 六合 with a line holding the 卦身",
         "things go as wished: travellers return, plans succeed", "卦身逢合，適意可就",
         lambda k: k.place == GUA_SHEN and (k.day_combines or k.month_combines)),
    Sign("世身空", "shi_shen_sign", "世身", INAUSPICIOUS, "9.4", BOOK,
         f"the 世身 line is void 旬空 ({WORLD_STRONG_REASON})",
         "doubt", "世身空主疑",
         lambda k: k.is_void and _harms(k)),
    Sign("世身破", "shi_shen_sign", "世身", INAUSPICIOUS, "9.4", BOOK,
         f"the 世身 line is broken by the month 月破 ({WORLD_STRONG_REASON})",
         "defeat", "世身破主敗",
         lambda k: k.is_month_break and _harms(k)),
    Sign("世身動", "shi_shen_sign", "世身", INAUSPICIOUS, "9.4", BOOK,
         f"the 世身 line moves ({WORLD_STRONG_REASON})",
         "disorder", "世身動主亂",
         lambda k: _moving(k.value) and _harms(k)),
    Sign("世身衝", "shi_shen_sign", "世身", NEUTRAL, "9.4", BOOK,
         f"the day clashes the 世身 line 日衝 ({WORLD_STRONG_REASON})",
         "change", "世身衝主變",
         lambda k: k.is_day_clash and _harms(k)),
    Sign("世身散", "shi_shen_sign", "世身", INAUSPICIOUS, "9.4", DECISION,
         f"the 世身 line moves and the day clashes it ({SCATTER_REASON}; {WORLD_STRONG_REASON})",
         "loss", "世身散主失",
         lambda k: _moving(k.value) and k.is_day_clash and _harms(k)),
    Sign(MATTER_SIGNS[GUA_SHEN, matters.WANT], "matter_sign", "卦身", AUSPICIOUS, "9.5", BOOK,
         "a line holding the 卦身 holds a relative, day spirit, general or 神煞 the matter "
         f"asked about wants (matter_preference), {SOUND_REASON}",
         "the body holds what the matter wants", "卦身臨所喜"),
    Sign(MATTER_SIGNS[GUA_SHEN, matters.FEAR], "matter_sign", "卦身", INAUSPICIOUS, "9.5", BOOK,
         "a line holding the 卦身 holds what the matter asked about fears",
         "the body holds what the matter fears", "卦身臨所忌"),
    Sign(MATTER_SIGNS[SHI_SHEN, matters.WANT], "matter_sign", "世身", AUSPICIOUS, "9.5", BOOK,
         f"the 世身 line holds what the matter asked about wants, {SOUND_REASON}",
         "the body holds what the matter wants", "世身臨所喜"),
    Sign(MATTER_SIGNS[SHI_SHEN, matters.FEAR], "matter_sign", "世身", INAUSPICIOUS, "9.5", BOOK,
         "the 世身 line holds what the matter asked about fears",
         "the body holds what the matter fears", "世身臨所忌"),
    Sign(RELIEF_SIGNS[GUA_SHEN], "matter_relief_sign", "卦身", AUSPICIOUS, "9.5", BOOK,
         "a worry is asked about and a line holding the 卦身 is void",
         "for a worry a void body is a relief", "憂患身空反安"),
    Sign(RELIEF_SIGNS[SHI_SHEN], "matter_relief_sign", "世身", AUSPICIOUS, "9.5", BOOK,
         "a worry is asked about and the 世身 line is void",
         "for a worry a void body is a relief", "憂患身空反安"),
    # -- the lines between (§10.2–10.4) -------------------------------------------------------
    Sign("間動", "between_sign", "間爻", INAUSPICIOUS, "10.2", BOOK,
         "a between line moves, in a question whose between lines are obstacles "
         "(question_between)",
         "an obstacle between me and the other", "間爻發動，多阻隔",
         lambda k: k.between_use == OBSTACLE and _moving(k.value)),
    Sign("間鬼", "relative_sign", "間爻", INAUSPICIOUS, "10.4", BOOK,
         "a between line's relative is 官鬼",
         "worry arises close to home", "間爻值鬼，憂生內地",
         lambda k: k.is_between and k.relative == GHOST),
    Sign("間鬼動", "relative_sign", "間爻", INAUSPICIOUS, "10.4", BOOK,
         "a between line holding 官鬼 moves",
         "the worry close to home grows worse", "間鬼又動，憂患尤甚",
         lambda k: k.is_between and k.relative == GHOST and _moving(k.value)),
    Sign("間生助", "between_sign", "間爻", AUSPICIOUS, "10.3", DECISION,
         "in a question whose between lines are helpers (question_between: a lawsuit's "
         "witness), a between line neither void nor broken is generated or helped by the day "
         "or the month (the day's element generates it or is its own; the month makes it 相 "
         "or 旺)",
         "the go-between helps: matchmaker, witness, craftsmen…", "間爻得生助，為我所用",
         lambda k: k.between_use == HELPER and not (k.is_void or k.is_month_break)
         and (_day_or_month(k, GENERATES_ME, GENERATED) or _day_or_month(k, SAME, HELPED))),
    Sign("間空破", "between_sign", "間爻", NEUTRAL, "10.3", BOOK,
         "in a question whose between lines are helpers (question_between), a between line "
         "is void or broken by the month",
         "the go-between is of no use", "間爻空破無功",
         lambda k: k.between_use == HELPER and (k.is_void or k.is_month_break)),
    # -- the lines (§2.3, §6.5–6.6, §10.5, standard) -------------------------------------------
    Sign("重現", "line_state_sign", "line", NEUTRAL, "10.5", BOOK,
         "a line of value 9 (重)",
         "what has already sprouted shows", "重爻，事已萌而現",
         lambda k: k.value == 9),
    Sign("交隱", "line_state_sign", "line", NEUTRAL, "10.5", BOOK,
         "a line of value 6 (交)",
         "what has not yet sprouted stays hidden", "交爻，事未萌而隱",
         lambda k: k.value == 6),
    Sign("暗動", "line_state_sign", "line", NEUTRAL, None, STANDARD,
         "a still line the day clashes while the month makes it strong (旺 or 相)",
         "stirred by the day: it acts though it does not move", "靜爻逢日衝而旺相，暗動",
         lambda k: _still(k.value) and k.is_day_clash and k.strength in STRONG),
    Sign("日破", "line_state_sign", "line", INAUSPICIOUS, None, STANDARD,
         "a still line the day clashes while the month leaves it weak (休, 囚 or 死)",
         "scattered by the day", "靜爻逢日衝而休囚，日破",
         lambda k: _still(k.value) and k.is_day_clash and k.strength not in STRONG),
    Sign("化合", "change_sign", "line", AUSPICIOUS, None, STANDARD,
         "a moving line changes into the branch that combines 六合 with it (回頭合)",
         "what moves comes back together", "動爻化回頭合",
         lambda k: harmony(k.branch) == k.changed_branch),
    Sign("伏吟", "change_sign", "line", INAUSPICIOUS, None, STANDARD,
         "a moving line changes into its own branch",
         "groaning in place: moving without getting anywhere", "動而化本支，伏吟",
         lambda k: k.branch == k.changed_branch),
    Sign("反吟", "change_sign", "line", INAUSPICIOUS, None, STANDARD,
         "a moving line changes into the branch that clashes it",
         "turning back and forth: what is gained is lost again", "動而化衝，反吟",
         lambda k: clash(k.branch) == k.changed_branch),
    *(
        Sign(name, "moving_relative_sign", "line", NEUTRAL, passage, BOOK,
             f"a {mover} line moves: it {verb} the {target}",
             gloss, f"{mover}發動，{'生' if verb == 'generates' else '克'}{target}",
             (lambda m: lambda k: k.relative == m and _moving(k.value))(mover))
        for name, mover, verb, target, passage, gloss in (
            ("財動生鬼", "妻財", "generates", "官鬼", "6.5", "favour overflowing breeds disorder"),
            ("父動生兄", "父母", "generates", "兄弟", "6.5", "kindness gathers followers"),
            ("官動生父", "官鬼", "generates", "父母", "6.5", "hardship first, honour after"),
            ("子動生財", "子孫", "generates", "妻財", "6.5", "life first, riches after"),
            ("兄動生子", "兄弟", "generates", "子孫", "6.5", "peers together bring worthy men"),
            ("父動克子", "父母", "controls", "子孫", "6.6", "the elder keeps the young in line"),
            ("子動克官", "子孫", "controls", "官鬼", "6.6", "the upright overcomes the wicked"),
            ("財動克父", "妻財", "controls", "父母", "6.6", "wealth spoils a scholar's name"),
            ("官動克兄", "官鬼", "controls", "兄弟", "6.6", "punishment checks fraud"),
            ("兄動克財", "兄弟", "controls", "妻財", "6.6", "profit breeds strife"),
        )
    ),
    # -- the spirits (§7.8–7.9) --------------------------------------------------------------
    Sign("吉神生", "line_state_sign", "spirit", AUSPICIOUS, "7.9", DECISION,
         "an auspicious day spirit's line is generated by the day or the month (the day's "
         "element generates it, or the month makes it 相)",
         "the auspicious spirit is fed", "吉神喜生",
         lambda k: k.nature == AUSPICIOUS and _day_or_month(k, GENERATES_ME, GENERATED)),
    Sign("吉神助", "line_state_sign", "spirit", AUSPICIOUS, "7.9", DECISION,
         "an auspicious day spirit's line is helped by the day or the month (the day branch "
         "is of its element, or the month makes it 旺)",
         "the auspicious spirit is helped", "吉神喜助",
         lambda k: k.nature == AUSPICIOUS and _day_or_month(k, SAME, HELPED)),
    Sign("吉神動", "line_state_sign", "spirit", AUSPICIOUS, "7.9", BOOK,
         "an auspicious day spirit's line moves",
         "the auspicious spirit acts", "吉神喜動",
         lambda k: k.nature == AUSPICIOUS and _moving(k.value)),
    Sign("吉神持世", "spirit_line_sign", "spirit", AUSPICIOUS, "7.9", BOOK,
         "an auspicious day spirit stands on the world line",
         "the auspicious spirit holds the world", "吉神喜持世",
         lambda k: _nature(k.spirit) == AUSPICIOUS and k.is_world),
    Sign("凶神制", "line_state_sign", "spirit", AUSPICIOUS, "7.9", DECISION,
         "an inauspicious day spirit's line is controlled by the day or the month (the day's "
         "element controls it, or the month makes it 死)",
         "the inauspicious spirit is held down", "凶神宜制",
         lambda k: k.nature == INAUSPICIOUS and _day_or_month(k, CONTROLS_ME, CONTROLLED)),
    Sign("凶神化", "line_state_sign", "spirit", AUSPICIOUS, "7.9", DECISION,
         "an inauspicious day spirit's line is drained: its element generates the day's, or "
         "the month makes it 休 (化 read as 化洩, its force flowing away)",
         "the inauspicious spirit's force is turned away", "凶神宜化",
         lambda k: k.nature == INAUSPICIOUS and _day_or_month(k, I_GENERATE, DRAINED)),
    Sign("凶神散", "line_state_sign", "spirit", AUSPICIOUS, "7.9", DECISION,
         f"an inauspicious day spirit's line moves and the day clashes it ({SCATTER_REASON})",
         "the inauspicious spirit is scattered", "凶神宜散",
         lambda k: k.nature == INAUSPICIOUS and _moving(k.value) and k.is_day_clash),
    Sign("凶神空", "line_state_sign", "spirit", AUSPICIOUS, "7.9", DECISION,
         f"an inauspicious day spirit's line is void 旬空 ({NATURE_REASON})",
         "the inauspicious spirit comes to nothing", "凶神宜逢空",
         lambda k: k.nature == INAUSPICIOUS and k.is_void),
    Sign("龍避金爻", "spirit_line_sign", "spirit", NEUTRAL, "7.8", BOOK,
         "the day spirit 青龍 stands on a 金 line",
         "benevolence in a place of blades: the good of 青龍 turns hollow, it does not turn "
         "to harm", "青龍之善落空",
         lambda k: k.spirit == "青龍" and k.element == "金", cancels="青龍之吉"),
    Sign("虎伏火爻", "spirit_line_sign", "spirit", NEUTRAL, "7.8", BOOK,
         "the day spirit 白虎 stands on a 火 line",
         "the killer is tamed: the harm of 白虎 is cancelled, it does not turn to good",
         "白虎之害作罷",
         lambda k: k.spirit == "白虎" and k.element == "火", cancels="白虎之凶"),
    Sign("水制朱雀", "spirit_line_sign", "spirit", AUSPICIOUS, "7.8", DECISION,
         "the day spirit 朱雀 stands on a 水 line (water's wisdom, 玄武's virtue, present on "
         "its line)",
         "quarrelling is overcome by wisdom", "朱雀臨水，明智勝爭",
         lambda k: k.spirit == "朱雀" and k.element == "水"),
    Sign("土制玄武", "spirit_line_sign", "spirit", AUSPICIOUS, "7.8", DECISION,
         "the day spirit 玄武 stands on a 土 line (earth's good faith, 勾陳's virtue, present "
         "on its line)",
         "cunning is won over by good faith", "玄武臨土，篤信化狡",
         lambda k: k.spirit == "玄武" and k.element == "土"),
    # -- stars and mansions (§8.7–8.12) --------------------------------------------------------
    *(
        Sign(f"{star}特現", "sole_sign", "star", polarity, passage, DECISION,
             f"the world line moves alone and the hexagram's star is {star} ({SOLE_REASON})",
             gloss, f"{star}隨世獨發而現",
             (lambda s: lambda k: k.is_sole and k.star == s)(star))
        for star, polarity, passage, gloss in (
            ("鎮星", AUSPICIOUS, "8.8", "stability: walls, houses, land; keep faith"),
            ("太白", INAUSPICIOUS, "8.8", "arms, punishment and mourning"),
            ("太陰", AUSPICIOUS, "8.9", "mercy and pardon: troubles melt away"),
            ("歲星", NEUTRAL, "8.9", "all things: good with the good, bad with the bad"),
            ("熒惑", INAUSPICIOUS, "8.9", "harm in everything but letters"),
        )
    ),
    Sign("熒惑受制", "star_sign", "star", NEUTRAL, "8.9", BOOK,
         "熒惑 shows (world moving alone) and the day's element controls fire",
         "the fire star is put out by the day: its harm is cancelled", "火星受日克，其害消",
         lambda k: k.is_sole and k.star == "熒惑" and k.day_relation == CONTROLS_ME,
         cancels="熒惑特現"),
    Sign("太白逢凶", "star_sign", "star", INAUSPICIOUS, "8.8", BOOK,
         "太白 shows and the world line holds 官鬼 or the day spirit 白虎",
         "the star of arms meets the killer or the ghost: harm", "太白值白虎官鬼有凶",
         lambda k: k.is_sole and k.star == "太白" and (k.relative == GHOST or k.spirit == "白虎")),
    Sign("太白無咎", "star_sign", "star", NEUTRAL, "8.8", BOOK,
         "太白 shows and the world line holds 子孫 or the day spirit 青龍",
         "the star of arms meets blessing or benevolence: its harm is cancelled, no blame",
         "金星遇子孫青龍，其害消",
         lambda k: k.is_sole and k.star == "太白"
         and (k.relative == OFFSPRING or k.spirit == "青龍"), cancels="太白特現"),
    Sign("太陰臨咸池", "star_shensha_sign", "star", INAUSPICIOUS, "8.9", BOOK,
         "太陰 shows and 咸池 stands on the world line",
         "mercy spoiled by dissipation", "太陰臨咸池，其德敗",
         lambda k: k.is_sole and k.star == "太陰" and k.shensha == shensha.XIANCHI),
    Sign("昏中", "mansion_sign", "mansion", AUSPICIOUS, "8.12", BOOK,
         "the line's mansion culminates at dusk this month 昏中",
         "the star shines: auspicious", "昏中為吉",
         lambda k: dusk.dusk_mansion(k.month_branch) == k.mansion),
    Sign("旦中", "mansion_sign", "mansion", INAUSPICIOUS, "8.12", DECISION,
         "the line's mansion culminates at dawn this month 旦中 (the dusk mansion of the "
         "month six months on)",
         "the star fades: inauspicious", "旦中為凶",
         lambda k: dusk.dawn_mansion(k.month_branch) == k.mansion),
    # -- the sun's and the moon's lodges at the cast (§8.12; lodge_sign) ----------------------
    Sign(SUN_LODGE, "lodge_sign", "mansion", AUSPICIOUS, "8.12", DECISION,
         f"the sun is in the line's mansion at the cast 日纏 ({LODGE_REASON})",
         "the sun stands in this line's lodge: the line is lit, auspicious",
         "日行本爻之宿，其爻得明，吉",
         lambda k: k.body == lodges.SUN and k.lodge == k.mansion),
    Sign(MOON_LODGE, "lodge_sign", "mansion", AUSPICIOUS, "8.12", DECISION,
         f"the moon is in the line's mansion at the cast 月麗 ({LODGE_REASON})",
         "the moon rests in this line's lodge: a good omen on the line",
         "月行本爻之宿，其爻有祥",
         lambda k: k.body == lodges.MOON and k.lodge == k.mansion),
    # --- the 用神 and its chain (docs/use.md): only for a reading that names its subject
    Sign("用神被克", "use_state_sign", "用神", INAUSPICIOUS, "6.6", DECISION,
         "the day or the month controls the 用神 (decision: §6.6's commentary reads a "
         "controlled 用神 as bad; the day and month are taken as the controllers)",
         "what is asked about is held down: unfavourable", "所問受制",
         lambda k: k.role == USE and bool(k.day_controls or k.month_controls)),
    Sign("忌神被克", "use_state_sign", "用神", AUSPICIOUS, "6.6", DECISION,
         "the day or the month controls the 忌神 (decision: §6.6's commentary reads a "
         "controlled 忌神 as good)",
         "what harms the matter is held down: favourable", "害者受制",
         lambda k: k.role == TABOO and bool(k.day_controls or k.month_controls)),
    Sign("原神動生用", "use_state_sign", "用神", AUSPICIOUS, "6.5", STANDARD,
         "the 原神 is a visible line that moves (a moving relative generates, §6.5)",
         "the source of the matter stirs and feeds it", "源動生扶",
         lambda k: k.role == SOURCE_ROLE and k.source != HIDDEN_SOURCE and bool(k.is_moving)),
    Sign("忌神動克用", "use_state_sign", "用神", INAUSPICIOUS, "6.6", STANDARD,
         "the 忌神 is a visible line that moves (a moving relative controls, §6.6)",
         "what harms the matter stirs against it", "忌動來傷",
         lambda k: k.role == TABOO and k.source != HIDDEN_SOURCE and bool(k.is_moving)),
    Sign("用神空", "use_state_sign", "用神", INAUSPICIOUS, None, STANDARD,
         "the 用神 is void 旬空 on the day",
         "what is asked about is empty for now", "所問落空",
         lambda k: k.role == USE and bool(k.is_void)),
    Sign("用神破", "use_state_sign", "用神", INAUSPICIOUS, None, STANDARD,
         "the month breaks the 用神 月破",
         "what is asked about is broken by the month", "所問遭破",
         lambda k: k.role == USE and bool(k.is_month_break)),
    Sign("用神伏藏", "use_state_sign", "用神", NEUTRAL, None, STANDARD,
         "no line shows the 用神's relative: it hides 伏神 under its 飛神",
         "what is asked about is hidden, not yet in view", "所問伏藏",
         lambda k: k.role == USE and k.source == HIDDEN_SOURCE),
    Sign("用神旺", "use_strength_sign", "用神", AUSPICIOUS, None, STANDARD,
         "the 用神 is 旺 or 相 in the month, or the day generates or helps it",
         "what is asked about has strength", "所問有力",
         lambda k: k.role == USE and _use_strong(k)),
    Sign("用神衰", "use_strength_sign", "用神", INAUSPICIOUS, None, STANDARD,
         "the 用神 is 休 囚 or 死 in the month and the day neither generates nor helps it",
         "what is asked about lacks strength", "所問無力",
         lambda k: k.role == USE and not _use_strong(k)),
    Sign("用神化回頭克", "use_change_sign", "用神", INAUSPICIOUS, None, STANDARD,
         "the 用神 moves and its changed line controls it 回頭克",
         "what is asked about turns against itself", "變而自傷",
         lambda k: k.role == USE and transforms.returns_controlling(k.branch, k.changed_branch)),
    Sign("用神化回頭生", "use_change_sign", "用神", AUSPICIOUS, None, STANDARD,
         "the 用神 moves and its changed line generates it 回頭生",
         "what is asked about is fed by its own change", "變而得生",
         lambda k: k.role == USE and transforms.returns_generating(k.branch, k.changed_branch)),
    Sign("用神化進神", "use_change_sign", "用神", AUSPICIOUS, "8.14", STANDARD,
         "the 用神 moves forward within its element 化進神 (§8.14 reads it of the world line; "
         "standard of the 用神)",
         "what is asked about grows", "漸長",
         lambda k: k.role == USE and transforms.advances(k.branch, k.changed_branch)),
    Sign("用神化退神", "use_change_sign", "用神", INAUSPICIOUS, "8.14", STANDARD,
         "the 用神 moves backward within its element 化退神 (§8.14 reads it of the world "
         "line; standard of the 用神)",
         "what is asked about shrinks", "漸消",
         lambda k: k.role == USE and transforms.retreats(k.branch, k.changed_branch)),
    Sign("伏神得出", "use_fly_sign", "用神", AUSPICIOUS, None, STANDARD,
         "the 用神 hides, and its 飛神 moves or the day clashes it: the 伏神 comes out",
         "what is hidden can come out", "伏者得出",
         lambda k: k.role == USE and bool(k.fly_is_moving or k.fly_is_day_clash)),
    Sign(ALL_GOOD, "use_lodge_sign", "用神", AUSPICIOUS, "8.12", BOOK,
         "the 用神 stands on a line whose mansion culminates at dusk this month 昏中, and the "
         "sun or the moon is in that mansion at the cast (日纏 or 月麗 on the line): the three "
         "conditions of the §8.12 commentary together (a hidden 用神 stands on no line's "
         "mansion of its own)",
         "what is asked about sits on the shining lodge with the sun or the moon upon it: "
         "good in every way",
         "用神居昏中之宿，日月臨之，吉無不備"),
)  # fmt: skip


@cache
def by_name() -> dict[str, Sign]:
    return {s.name: s for s in SIGNS}


@cache
def _of_table() -> dict[str, tuple[Sign, ...]]:
    tables: dict[str, list[Sign]] = {}
    for s in SIGNS:
        if s.when is not None:
            tables.setdefault(s.table, []).append(s)
    return {name: tuple(found) for name, found in tables.items()}


def firing(table: str, key: Any) -> list[str]:
    """The signs of ``table`` whose condition holds for ``key``, in catalogue order."""
    return [s.name for s in _of_table().get(table, ()) if s.when is not None and s.when(key)]


def hexagram_key(gua_shen_lines: int, generation: int) -> HexagramKey:
    """The key of hexagram_sign for a hexagram."""
    return HexagramKey(gua_shen_lines, generation)


# --- places of the lines ---------------------------------------------------------------------


def line_places(
    world: int, response: int, generation: int, gua_shen_lines: tuple[int, ...], shi_shen: int
) -> list[Place]:
    """The places the lines of a hexagram hold: world and response (the pure hexagrams §8.2–8.3,
    the other generations §8.4), the between lines (§10.1), the lines holding the 卦身 and the
    世身 line (§9.1), and the lines after and before the 世身 (§10.5)."""
    pure = generation == 0
    low = min(world, response)
    places = [
        Place(world, WORLD, "8.3" if pure else "8.4", BOOK),
        Place(response, RESPONSE, "8.2" if pure else "8.4", BOOK),
        *(Place(p, BETWEEN_LINE, "10.1", BOOK) for p in (low + 1, low + 2)),
        *(Place(p, GUA_SHEN, "9.1", BOOK) for p in gua_shen_lines),
        Place(shi_shen, SHI_SHEN, "9.1", BOOK),
        Place(bodies.ahead(shi_shen), AHEAD, "10.5", BOOK),
        Place(bodies.behind(shi_shen), BEHIND, "10.5", BOOK),
    ]
    return sorted(places, key=lambda p: (p.position, PLACES.index(p.place)))


# --- requirements: 三合 and 三刑 around the world, the matter asked about -------------------------


@dataclass(frozen=True)
class GroupRule:
    """world_group_sign: a 三合 or 三刑 the world line's branch belongs to, the state of the
    world it needs, the other two branches it needs present, and where they may come from."""

    branch: str
    is_void: int
    is_moving: int
    sign: str
    partner_a: str
    partner_b: str
    sources: tuple[str, ...]  # some of SOURCES

    def fires(self, present: dict[str, set[str]]) -> bool:
        """Both partners among the branches ``present`` by source."""
        found = set().union(*(present[s] for s in self.sources))
        return self.partner_a in found and self.partner_b in found


TRIAD_SOURCES = ("day", "month", "moving")  # §8.14 commentary: 日月動爻
PUNISHMENT_SOURCES = ("day", "month", "changed")  # §8.14 commentary: 日月變爻


def _punishment_partners(branch: str) -> tuple[str, str] | None:
    """The other branches of the 三刑 group ``branch`` belongs to (a 子卯 partner twice; a
    自刑 branch itself twice)."""
    group = [p for p in punishments() if branch in (p.first, p.second)]
    if not group:
        return None
    others = sorted({b for p in group for b in (p.first, p.second)} - {branch}) or [branch]
    return (others[0], others[-1])


@cache
def group_rules() -> tuple[GroupRule, ...]:
    """三合生有 for a void world (either still or moving), 三刑自敝 for a moving world
    (either void or not)."""
    out = []
    for branch in facts().branches:
        triad = next(t for t in triads() if branch in t.roles)
        a, b = sorted(set(triad.roles) - {branch})
        for moving in FLAG_VALUES:
            out.append(GroupRule(branch, 1, moving, TRIAD_SUPPORT, a, b, TRIAD_SOURCES))
        partners = _punishment_partners(branch)
        if partners is not None:
            for void in FLAG_VALUES:
                out.append(
                    GroupRule(branch, void, 1, PUNISHMENT_WEAR, *partners, PUNISHMENT_SOURCES)
                )
    return tuple(out)


@dataclass(frozen=True)
class MatterRule:
    """matter_sign: a body place and an attitude of a matter, the state of the body line
    (its value, void, 月破, 日衝) and the sign it gives: what the matter wants counts only on
    a sound body (§9.5 先宜無病), what it fears on any."""

    matter: str
    place: str
    attitude: str
    value: int
    is_void: int
    is_month_break: int
    is_day_clash: int
    sign: str


VOID_CONDITION = "空"


@cache
def matter_rules() -> tuple[MatterRule, ...]:
    """For each matter, the body signs of the attitudes its preferences have (§9.5)."""
    found = {(p.matter, p.attitude) for p in matters.preferences()}
    return tuple(
        MatterRule(matter, place, attitude, value, void, brk, clash, sign)
        for matter in matters.matters()
        for (place, attitude), sign in MATTER_SIGNS.items()
        if (matter, attitude) in found
        for value in lines.VALUES
        for void in FLAG_VALUES
        for brk in FLAG_VALUES
        for clash in FLAG_VALUES
        if attitude != matters.WANT
        or bodies.is_sound(_moving(value), bool(void), bool(brk), bool(clash))
    )


@dataclass(frozen=True)
class ReliefRule:
    """matter_relief_sign: a matter for which a void body is a relief."""

    matter: str
    place: str
    is_void: int
    sign: str


@cache
def relief_rules() -> tuple[ReliefRule, ...]:
    """憂患: a void 卦身 or 世身 line is a relief (§9.5)."""
    relieved = {
        p.matter
        for p in matters.preferences()
        if p.attitude == matters.RELIEF and p.item == VOID_CONDITION
    }
    return tuple(
        ReliefRule(matter, place, 1, sign)
        for matter in matters.matters()
        if matter in relieved
        for place, sign in RELIEF_SIGNS.items()
    )


# --- the families: the registry ------------------------------------------------------------------
#
# One declaration per rule table of signs (kb/rules/sign_family.py says what each part is): its
# key columns with their domains, its arm of v_reading_sign_computed, and how the oracle
# builds its key.
# The tables, the view, the rows, the oracle's loop, the invariants' list of family tables and
# the families table of docs/signs.md are derived from it.


@dataclass(frozen=True)
class UseLodgeRule:
    """use_lodge_sign: 盡善 (§8.12 commentary) needs the 用神 on a line of the primary (not
    hidden) whose mansion is the month's dusk mansion 昏中, and the sun or the moon in that
    mansion at the cast: a row gives the first two; the third is 日纏 or 月麗 on the line
    (lodge_sign)."""

    month_branch: str
    mansion: str
    role: str
    source: str
    sign: str


@cache
def use_lodge_rules() -> tuple[UseLodgeRule, ...]:
    """A row for each month and each place a 用神 may show on (a hidden one stands on no
    line's mansion of its own): the 用神 on the month's 昏中 mansion."""
    return tuple(
        UseLodgeRule(branch, dusk.dusk_mansion(branch), USE, source, ALL_GOOD)
        for branch in facts().branches
        for source in use.SOURCES
        if source != HIDDEN_SOURCE
    )


NATURES = (AUSPICIOUS, INAUSPICIOUS)
BODY_PLACES = (GUA_SHEN, SHI_SHEN)
ATTITUDES = (matters.WANT, matters.FEAR)

# the domains of the key columns
PLACE = Domain(TEXT, 2, listed=PLACES)
VALUE = Domain(INT, references="line_value.value", lookup=lambda: lines.VALUES)
NATURE = Domain(TEXT, 1, listed=NATURES)
RELATION = Domain(TEXT, 16, listed=ELEMENT_RELATIONS)
STRENGTH = Domain(TEXT, 1, references="strength.name", lookup=stages.strength_names)
STAGE = Domain(TEXT, 2, references="stage.name", lookup=stages.stage_names)
SPIRIT = Domain(TEXT, 2, references="spirit.name", lookup=spirits.spirit_names)
ELEMENT = Domain(TEXT, 1, references="element.name", lookup=lambda: facts().elements)
RELATIVE = Domain(TEXT, 2, references="relative.name", lookup=lambda: facts().relatives)
BRANCH = Domain(TEXT, 1, references="branch.name", lookup=lambda: facts().branches)
STAR = Domain(TEXT, 2, references="star.name", lookup=lambda: facts().stars)
SHENSHA = Domain(TEXT, 2, references="shensha.name", lookup=lambda: shensha.SHENSHA)
MANSION = Domain(TEXT, 1, references="mansion.name", lookup=lambda: facts().mansions)
HEXAGRAM = Domain(INT, references="hexagram.king_wen", lookup=lambda: range(1, 65))
MATTER = Domain(TEXT, 2, references="matter.name", lookup=lambda: matters.matters())
BODY = Domain(TEXT, 2, listed=BODY_PLACES)
ATTITUDE = Domain(TEXT, 8, listed=ATTITUDES)
ROLE = Domain(TEXT, 2, listed=use.ROLES)
BETWEEN_USE = Domain(TEXT, 8, listed=(questions.OBSTACLE, questions.HELPER))
USE_SOURCE = Domain(TEXT, 8, listed=use.SOURCES)
LODGE_BODY = Domain(TEXT, 1, listed=lodges.BODIES)
ROLE_DOC = "The role: 用神 原神 忌神 or 仇神 (docs/use.md)"

PLACE_DOC = "The line's place: 世 應 間 卦身 世身 身前 (after the 世身) or 身後 (before it)"
VALUE_DOC = "The line's value 6..9"
RELATION_DOC = (
    "How the day branch's element stands to the line's: generates_me (the day generates "
    "it), same, controls_me (the day controls it), i_generate, i_control"
)
STRENGTH_DOC = "The line's strength in the month 旺相休囚死"
VOID = flag("is_void", "1 if the line is void 旬空")
BREAK = flag("is_month_break", "1 if the month breaks it 月破")
CLASH = flag("is_day_clash", "1 if the day clashes it 日衝")
ALONE = flag("is_sole", "1 if the world line is the only moving line")
ON_WORLD = flag("is_world", "1 on the world line")
SHOWING_STAR = Column("star", STAR, "The primary hexagram's star")


def _day_element(r: ReadingFacts) -> str:
    return facts().branch_element[r.day_gz[1]]


def _star_key(r: ReadingFacts, w: LineFacts) -> Key:
    star = r.primary.five_star
    day_relation = relation(facts().stars[star], _day_element(r))
    return (r.world_alone, star, w.relative, w.spirit, day_relation)


def _star_shensha_keys(r: ReadingFacts) -> Iterator[tuple[int | None, Key]]:
    for name in shensha.on_line(r.day_gz, r.world.ganzhi):
        yield r.world.position, (r.world_alone, r.primary.five_star, name)


def _hexagram_rows() -> Iterator[dict[str, Any]]:
    from yimao_db.kb.rules.hexagrams import gua_shen_positions, hexagrams

    for h in sorted(hexagrams().values(), key=lambda h: h.king_wen):
        gua_shen = gua_shen_positions([line.branch for line in h.lines], h.gua_shen)
        key = hexagram_key(len(gua_shen), h.generation)
        for name in firing("hexagram_sign", key):
            yield {"king_wen": h.king_wen, "sign": name}


def _group_rows() -> Iterator[dict[str, Any]]:
    for g in group_rules():
        yield {
            "branch": g.branch,
            "is_void": g.is_void,
            "is_moving": g.is_moving,
            "partner_a": g.partner_a,
            "partner_b": g.partner_b,
            **{f"by_{source}": int(source in g.sources) for source in SOURCES},
            "sign": g.sign,
        }


def _group_fires(r: ReadingFacts) -> Iterator[tuple[int | None, str]]:
    """三合 and 三刑 around the world: both partners present where the rule allows."""
    w = r.world
    moved = [f for f in r.lines if f.changed_branch is not None]
    present = {
        "day": {r.day_gz[1]},
        "month": {r.month_branch},
        "moving": {f.branch for f in moved},
        "changed": {f.changed_branch for f in moved if f.changed_branch is not None},
    }
    state = (w.branch, w.is_void, int(w.changed_branch is not None))
    for rule in group_rules():
        if (rule.branch, rule.is_void, rule.is_moving) == state and rule.fires(present):
            yield w.position, rule.sign


def _bodies(r: ReadingFacts) -> Iterator[tuple[Place, LineFacts]]:
    """The lines holding the 卦身 and the 世身 line, when a matter is asked about."""
    if r.matter is None:
        return
    for place in r.places:
        if place.place in BODY_PLACES:
            yield place, r.line(place.position)


def _items(r: ReadingFacts, f: LineFacts) -> set[tuple[str, str]]:
    """What a line holds, as matter_preference names it: (item_kind, item)."""
    items = {("relative", f.relative), ("spirit", f.spirit)}
    if f.general is not None:
        items.add(("general", f.general))
    return items | {("shensha", name) for name in shensha.on_line(r.day_gz, f.ganzhi)}


def _matter_fires(r: ReadingFacts) -> Iterator[tuple[int | None, str]]:
    """A body holding what the matter asked about wants or fears (§9.5)."""
    prefs = matters.preferences()
    for place, f in _bodies(r):
        items = _items(r, f)
        state = (f.value, f.is_void, f.is_month_break, f.is_day_clash)
        for rule in matter_rules():
            if (
                (rule.matter, rule.place) == (r.matter, place.place)
                and (
                    rule.value,
                    rule.is_void,
                    rule.is_month_break,
                    rule.is_day_clash,
                )
                == state
                and any(
                    (p.item_kind, p.item) in items
                    for p in prefs
                    if (p.matter, p.attitude) == (r.matter, rule.attitude)
                )
            ):
                yield place.position, rule.sign


def _relief_fires(r: ReadingFacts) -> Iterator[tuple[int | None, str]]:
    """A void body relieving the matter asked about (§9.5)."""
    for place, f in _bodies(r):
        for relief in relief_rules():
            if (relief.matter, relief.place, relief.is_void) == (r.matter, place.place, f.is_void):
                yield place.position, relief.sign


def _lodge_keys(r: ReadingFacts) -> Iterator[tuple[int | None, Key]]:
    """lodge_sign: each line's mansion with the sun's and with the moon's lodge at the cast."""
    for f in r.lines:
        for body, lodge in r.lodges:
            yield f.position, (f.mansion, body, lodge)


def _lit(r: ReadingFacts) -> set[int]:
    """The lines 日纏 or 月麗 fires on."""
    key = families()["lodge_sign"].key
    return {p for p, k in _lodge_keys(r) if p is not None and firing("lodge_sign", key(*k))}


def _use_lodge_fires(r: ReadingFacts) -> Iterator[tuple[int | None, str]]:
    """盡善: a row of use_lodge_sign for the 用神's line, with 日纏 or 月麗 on it (§8.12)."""
    lit = _lit(r) if r.use else set()
    for u in r.use:
        if u.position not in lit:
            continue
        mansion = r.line(u.position).mansion
        for rule in use_lodge_rules():
            if (rule.role, rule.source, rule.month_branch, rule.mansion) == (
                u.role,
                u.source,
                r.month_branch,
                mansion,
            ):
                yield u.position, rule.sign


FAMILIES: tuple[Family, ...] = (
    Family(
        "hexagram_sign",
        "Signs of a primary hexagram as a whole (position NULL): the 卦身 missing or doubled "
        "(§9.2–9.3), 遊魂 and 歸魂 (§8.5).",
        "the primary hexagram (how many lines hold the 卦身, its generation)",
        (Column("king_wen", HEXAGRAM, "The primary hexagram"),),
        None,
        """
        JOIN hexagram_sign hs ON hs.king_wen = r.primary_kw
        """,
        keys=whole(lambda r: astuple(hexagram_key(r.gua_shen_lines, r.primary.generation))),
        rows=_hexagram_rows,
        condition_key=HexagramKey,
    ),
    Family(
        "world_response_sign",
        "World against response (§8.15): how the response line's element stands to the world "
        "line's, read in a question between two parties 人己之佔 (question_parties).",
        "how the response line's element stands to the world line's, and whether the question "
        "is between two parties (`question_parties`, by the reading's matter and subject)",
        (
            Column("relation", RELATION, "How the response line's element stands to the world's"),
            flag("two_parties", "1 if the question is between two parties (question_parties)"),
        ),
        None,
        """
        JOIN hexagram h ON h.king_wen = r.primary_kw
        JOIN hexagram_line w ON w.king_wen = r.primary_kw AND w.position = h.world
        JOIN hexagram_line o ON o.king_wen = r.primary_kw AND o.position = h.response
        JOIN element_relation er ON er.me = w.element AND er.other = o.element
        JOIN question_parties qp ON qp.matter = COALESCE(r.matter, '')
          AND qp.about = COALESCE(r.about, '')
        JOIN world_response_sign wr ON wr.relation = er.relation AND wr.two_parties = qp.two_parties
        """,
        keys=whole(
            lambda r: (
                relation(r.world.element, r.line(r.primary.response).element),
                int(questions.two_parties(r.matter, r.about)),
            )
        ),
    ),
    Family(
        "line_sign",
        "Signs of a line in one of its places (line_place) by its value and what the day and "
        "month do to it: 世空 世破 世動 世衝, 應空 應破, the 卦身 conditions (§8.14, §9.2–9.3).",
        "a line's place (`line_place`: 世 應 間 卦身 世身 身前 身後), value, void, 月破, 日衝",
        (Column("place", PLACE, PLACE_DOC), Column("value", VALUE, VALUE_DOC), VOID, BREAK, CLASH),
        "lp.position",
        """
        JOIN line_place lp ON lp.king_wen = r.primary_kw
        JOIN reading_line_chart lc ON lc.reading_id = r.id AND lc.position = lp.position
        JOIN line_sign ls ON ls.place = lp.place AND ls.value = lc.value AND ls.is_void = lc.is_void
          AND ls.is_month_break = lc.is_month_break AND ls.is_day_clash = lc.is_day_clash
        """,
        keys=per_place(
            lambda r, p, f: (p.place, f.value, f.is_void, f.is_month_break, f.is_day_clash)
        ),
    ),
    Family(
        "shi_shen_sign",
        "Signs of the 世身 line by its value and what the day and month do to it, while the "
        "world line is weak: 世身空 破 動 衝 散 (§9.4 and its commentary).",
        "the 世身 line's value, void, 月破, 日衝 and the world line's strength in the month",
        (
            Column("value", VALUE, VALUE_DOC),
            VOID,
            BREAK,
            CLASH,
            Column("world_strength", STRENGTH, "The world line's strength in the month 旺相休囚死"),
        ),
        "lc.position",
        """
        JOIN hexagram h ON h.king_wen = r.primary_kw
        JOIN reading_line_chart lc ON lc.reading_id = r.id AND lc.position = h.shi_shen_line
        JOIN reading_line_chart w ON w.reading_id = r.id AND w.position = h.world
        JOIN shi_shen_sign sh ON sh.value = lc.value AND sh.is_void = lc.is_void
          AND sh.is_month_break = lc.is_month_break AND sh.is_day_clash = lc.is_day_clash
          AND sh.world_strength = w.strength
        """,
        keys=per_line(
            lambda r, f: (
                (f.value, f.is_void, f.is_month_break, f.is_day_clash, r.world.strength)
                if f.position == r.primary.shi_shen_line
                else None
            )
        ),
    ),
    Family(
        "bearing_sign",
        "Signs of a line in one of its places by how the day and month bear on it: the 卦身 "
        "combined (§9.2), the world combined and clashed (§8.13).",
        "a line's place, void, 月破, 日衝, how the day's element stands to it, its strength in "
        "the month, whether the day or month combines with it",
        (
            Column("place", PLACE, PLACE_DOC),
            VOID,
            BREAK,
            CLASH,
            Column("day_relation", RELATION, RELATION_DOC),
            Column("strength", STRENGTH, STRENGTH_DOC),
            flag("day_combines", "1 if the day branch combines with the line's 六合"),
            flag("month_combines", "1 if the month branch combines with the line's 六合"),
        ),
        "lp.position",
        """
        JOIN ganzhi d ON d.name = r.day_gz
        JOIN line_place lp ON lp.king_wen = r.primary_kw
        JOIN reading_line_chart lc ON lc.reading_id = r.id AND lc.position = lp.position
        JOIN branch_bearing db ON db.actor = d.branch AND db.branch = lc.branch
        JOIN bearing_sign bs ON bs.place = lp.place AND bs.is_void = lc.is_void
          AND bs.is_month_break = lc.is_month_break AND bs.is_day_clash = lc.is_day_clash
          AND bs.day_relation = db.relation AND bs.strength = lc.strength
          AND bs.day_combines = lc.day_combines AND bs.month_combines = lc.month_combines
        """,
        keys=per_place(
            lambda r, p, f: (
                p.place,
                f.is_void,
                f.is_month_break,
                f.is_day_clash,
                f.day.relation,
                f.strength,
                int(f.day.combines),
                int(f.month.combines),
            )
        ),
    ),
    Family(
        "between_sign",
        "Signs of a between line (§10.2–10.3) by what the question makes of it "
        "(question_between): an obstacle when it moves, or a helper generated or helped, or "
        "of no use when void or broken.",
        "a between line: what the question makes of it (`question_between`, by the reading's "
        "matter), its value, void, 月破, how the day's element stands to it, its strength",
        (
            Column("between_use", BETWEEN_USE, "obstacle or helper (question_between)"),
            Column("value", VALUE, VALUE_DOC),
            VOID,
            BREAK,
            Column("day_relation", RELATION, RELATION_DOC),
            Column("strength", STRENGTH, STRENGTH_DOC),
        ),
        "lc.position",
        """
        JOIN question_between qb ON qb.matter = COALESCE(r.matter, '')
        JOIN ganzhi d ON d.name = r.day_gz
        JOIN reading_line_chart lc ON lc.reading_id = r.id AND lc.is_between = 1
        JOIN branch_bearing db ON db.actor = d.branch AND db.branch = lc.branch
        JOIN between_sign bt ON bt.between_use = qb.between_use AND bt.value = lc.value
          AND bt.is_void = lc.is_void AND bt.is_month_break = lc.is_month_break
          AND bt.day_relation = db.relation AND bt.strength = lc.strength
        """,
        keys=per_line(
            lambda r, f: (
                (
                    questions.between_use(r.matter),
                    f.value,
                    f.is_void,
                    f.is_month_break,
                    f.day.relation,
                    f.strength,
                )
                if f.is_between
                else None
            )
        ),
    ),
    Family(
        "line_state_sign",
        "Signs of any line by its value, its day spirit's nature and what the day and month do "
        "to it: 重現 交隱 (§10.5), 暗動 日破, and what suits the spirits (§7.9).",
        "any line: its day spirit's nature, value, void, 日衝, the day's relation, its strength",
        (
            Column(
                "nature", NATURE, "吉 or 凶: the nature of the line's day spirit (spirit_nature)"
            ),
            Column("value", VALUE, VALUE_DOC),
            VOID,
            CLASH,
            Column("day_relation", RELATION, RELATION_DOC),
            Column("strength", STRENGTH, STRENGTH_DOC),
        ),
        "lc.position",
        """
        JOIN ganzhi d ON d.name = r.day_gz
        JOIN reading_line_chart lc ON lc.reading_id = r.id
        JOIN branch_bearing db ON db.actor = d.branch AND db.branch = lc.branch
        JOIN spirit_nature sn ON sn.spirit = lc.spirit
        JOIN line_state_sign ss ON ss.nature = sn.nature AND ss.value = lc.value
          AND ss.is_void = lc.is_void AND ss.is_day_clash = lc.is_day_clash
          AND ss.day_relation = db.relation AND ss.strength = lc.strength
        """,
        keys=per_line(
            lambda r, f: (
                _nature(f.spirit),
                f.value,
                f.is_void,
                f.is_day_clash,
                f.day.relation,
                f.strength,
            )
        ),
    ),
    Family(
        "spirit_line_sign",
        "Signs of a line's day spirit by the line's element and place: the affinities (§7.8) "
        "and an auspicious spirit holding the world (§7.9).",
        "a line's day spirit, element, whether it is the world",
        (
            Column("spirit", SPIRIT, "The line's day spirit"),
            Column("element", ELEMENT, "The line's element"),
            ON_WORLD,
        ),
        "lc.position",
        """
        JOIN reading_line_chart lc ON lc.reading_id = r.id
        JOIN spirit_line_sign sl ON sl.spirit = lc.spirit AND sl.element = lc.element
          AND sl.is_world = lc.is_world
        """,
        keys=per_line(lambda r, f: (f.spirit, f.element, f.is_world)),
    ),
    Family(
        "relative_sign",
        "Signs of a line's relative: a 官鬼 between line (§10.4), the world feeding the 官鬼 "
        "or entombed with it (§8.13).",
        "a line's relative, value, stage at the day, whether world or between",
        (
            ON_WORLD,
            flag("is_between", "1 on a between line"),
            Column("relative", RELATIVE, "The line's relative"),
            Column("value", VALUE, VALUE_DOC),
            Column("stage", STAGE, "The stage of the line's element at the day branch"),
        ),
        "lc.position",
        """
        JOIN reading_line_chart lc ON lc.reading_id = r.id
        JOIN relative_sign rs ON rs.is_world = lc.is_world AND rs.is_between = lc.is_between
          AND rs.relative = lc.relative AND rs.value = lc.value AND rs.stage = lc.stage
        """,
        keys=per_line(lambda r, f: (f.is_world, f.is_between, f.relative, f.value, f.stage)),
    ),
    Family(
        "moving_relative_sign",
        "The images of a moving relative (§6.5 生象, §6.6 克象): what it generates and controls.",
        "a line's relative and value",
        (Column("relative", RELATIVE, "The line's relative"), Column("value", VALUE, VALUE_DOC)),
        "lc.position",
        """
        JOIN reading_line_chart lc ON lc.reading_id = r.id
        JOIN moving_relative_sign mr ON mr.relative = lc.relative AND mr.value = lc.value
        """,
        keys=per_line(lambda r, f: (f.relative, f.value)),
    ),
    Family(
        "change_sign",
        "Signs of a moving line by the branch it changes into: the world 化進神 or 化退神 "
        "(§8.14), entombed by its change (§8.13), 化合, 伏吟 and 反吟 (standard).",
        "a moving line's relative and branch, whether it is the world, the branch it changes into",
        (
            ON_WORLD,
            Column("relative", RELATIVE, "The line's relative"),
            Column("branch", BRANCH, "The moving line's branch"),
            Column("changed_branch", BRANCH, "The branch it changes into"),
        ),
        "lc.position",
        """
        JOIN reading_line_chart lc ON lc.reading_id = r.id AND lc.is_moving = 1
        JOIN change_sign cs ON cs.is_world = lc.is_world AND cs.relative = lc.relative
          AND cs.branch = lc.branch AND cs.changed_branch = lc.changed_branch
        """,
        keys=per_line(
            lambda r, f: (
                None
                if f.changed_branch is None
                else (f.is_world, f.relative, f.branch, f.changed_branch)
            )
        ),
    ),
    Family(
        "mansion_sign",
        "A line's mansion culminating at dusk 昏中 (auspicious) or at dawn 旦中 (inauspicious) "
        "in the month (§8.12).",
        "a line's mansion and the month",
        (
            Column("month_branch", BRANCH, "The month's branch"),
            Column("mansion", MANSION, "The line's mansion"),
        ),
        "l.position",
        """
        JOIN hexagram_line l ON l.king_wen = r.primary_kw
        JOIN mansion_sign ms ON ms.month_branch = r.month_branch AND ms.mansion = l.mansion
        """,
        keys=per_line(lambda r, f: (r.month_branch, f.mansion)),
    ),
    Family(
        "lodge_sign",
        "日纏 and 月麗 (§8.12): the sun or the moon in a line's mansion at the cast. A row for "
        "each mansion and body where the body's lodge is the mansion: the equality is the "
        "rule, as data.",
        "a line's mansion, and the lodge the sun and the moon are in at the cast (the "
        "reading's `sun_mansion` and `moon_mansion`, which `reading_header` stores)",
        (
            Column("mansion", MANSION, "The line's mansion"),
            Column("body", LODGE_BODY, "日 (the sun) or 月 (the moon)"),
            Column("lodge", MANSION, "The lodge the body is in at the cast"),
        ),
        "l.position",
        f"""
        JOIN reading_header hd ON hd.reading_id = r.id
        JOIN hexagram_line l ON l.king_wen = r.primary_kw
        JOIN lodge_sign lg ON lg.mansion = l.mansion AND {at_stored_lodge("lg")}
        """,
        keys=_lodge_keys,
    ),
    Family(
        "sole_sign",
        "獨發 and the star that shows when the world line is the only moving line (§8.7–8.9).",
        "the world line moving alone (`mask_line`) and the hexagram's star",
        (ALONE, SHOWING_STAR),
        "h.world",
        """
        JOIN hexagram h ON h.king_wen = r.primary_kw
        JOIN mask_line ml ON ml.mask = r.moving_mask AND ml.position = h.world
        JOIN sole_sign so ON so.is_sole = ml.is_sole AND so.star = h.five_star
        """,
        keys=on_world(lambda r, w: (r.world_alone, r.primary.five_star)),
    ),
    Family(
        "star_sign",
        "What a showing star meets on the world line (§8.8–8.9): 熒惑 controlled by the day, "
        "太白 with 白虎 or 官鬼, or with 青龍 or 子孫.",
        "the world line moving alone, the hexagram's star, the world line's relative and day "
        "spirit, how the day's element stands to the star's",
        (
            ALONE,
            SHOWING_STAR,
            Column("relative", RELATIVE, "The world line's relative"),
            Column("spirit", SPIRIT, "The world line's day spirit"),
            Column("day_relation", RELATION, RELATION_DOC.replace("line's", "star's")),
        ),
        "h.world",
        """
        JOIN hexagram h ON h.king_wen = r.primary_kw
        JOIN mask_line ml ON ml.mask = r.moving_mask AND ml.position = h.world
        JOIN hexagram_line w ON w.king_wen = r.primary_kw AND w.position = h.world
        JOIN ganzhi d ON d.name = r.day_gz
        JOIN branch dbr ON dbr.name = d.branch
        JOIN star s ON s.name = h.five_star
        JOIN element_relation er ON er.me = s.element AND er.other = dbr.element
        JOIN day_spirit ds ON ds.day_stem = d.stem AND ds.position = h.world
        JOIN star_sign st ON st.is_sole = ml.is_sole AND st.star = h.five_star
          AND st.relative = w.relative AND st.spirit = ds.spirit AND st.day_relation = er.relation
        """,
        keys=on_world(_star_key),
    ),
    Family(
        "star_shensha_sign",
        "A showing star meeting a 神煞 on the world line: 太陰 under 咸池 (§8.9).",
        "the world line moving alone, the hexagram's star, a 神煞 on the world line",
        (ALONE, SHOWING_STAR, Column("shensha", SHENSHA, "A 神煞 on the world line")),
        "h.world",
        """
        JOIN hexagram h ON h.king_wen = r.primary_kw
        JOIN mask_line ml ON ml.mask = r.moving_mask AND ml.position = h.world
        JOIN line_najia wn
          ON wn.king_wen = r.primary_kw AND wn.position = h.world AND wn.half_year = r.najia_half
        JOIN shensha_on so ON so.day_gz = r.day_gz AND so.ganzhi = wn.ganzhi
        JOIN star_shensha_sign sh
          ON sh.is_sole = ml.is_sole AND sh.star = h.five_star AND sh.shensha = so.shensha
        """,
        keys=_star_shensha_keys,
    ),
    Family(
        "world_group_sign",
        "三合 and 三刑 around the world line (§8.14): the state of the world each needs, the "
        "other two branches it needs present, and where they may come from — the day, the "
        "month, the moving lines' branches (三合) or the changed lines' branches (三刑).",
        "the world's branch, void and moving; the two other branches of its 三合 or 三刑 and "
        "where they may come from",
        (
            Column("branch", BRANCH, "The world line's branch"),
            flag("is_void", "1 if the world must be void, 0 if it must not"),
            flag("is_moving", "1 if the world must move, 0 if it must not"),
            Column("partner_a", BRANCH, "One branch the group needs besides the world's", False),
            Column(
                "partner_b", BRANCH, "The other (the same as partner_a for a pair or 自刑)", False
            ),
            Column("by_day", FLAG, "1 if the day branch counts as present", False),
            Column("by_month", FLAG, "1 if the month branch counts as present", False),
            Column("by_moving", FLAG, "1 if the moving lines' branches count", False),
            Column("by_changed", FLAG, "1 if the changed lines' branches count", False),
        ),
        "h.world",
        """
        JOIN ganzhi d ON d.name = r.day_gz
        JOIN hexagram h ON h.king_wen = r.primary_kw
        JOIN hexagram_line w ON w.king_wen = r.primary_kw AND w.position = h.world
        JOIN reading_line wr ON wr.reading_id = r.id AND wr.position = h.world
        JOIN line_value wv ON wv.value = wr.value
        JOIN branch_on_day wd ON wd.day_gz = r.day_gz AND wd.branch = w.branch
        JOIN world_group_sign g
          ON g.branch = w.branch AND g.is_void = wd.is_void AND g.is_moving = wv.is_moving
        -- no partner is missing: each of the two (the branch rows partner_a and partner_b
        -- name, one row when they are the same) is the day's branch, the month's, a moving
        -- line's or a changed line's, as the row's by_* flags allow
        WHERE NOT EXISTS (
          SELECT 1 FROM branch p
          WHERE (p.name = g.partner_a OR p.name = g.partner_b) AND NOT (
            g.by_day = 1 AND d.branch = p.name
            OR g.by_month = 1 AND r.month_branch = p.name
            OR g.by_moving = 1 AND EXISTS (
              SELECT 1 FROM reading_line x
              JOIN line_value xv ON xv.value = x.value
              JOIN hexagram_line xl ON xl.king_wen = r.primary_kw AND xl.position = x.position
              WHERE x.reading_id = r.id AND xv.is_moving = 1 AND xl.branch = p.name)
            OR g.by_changed = 1 AND EXISTS (
              SELECT 1 FROM reading_line x
              JOIN line_value xv ON xv.value = x.value
              JOIN hexagram_line xc ON xc.king_wen = r.changed_kw AND xc.position = x.position
              WHERE x.reading_id = r.id AND xv.is_moving = 1 AND xc.branch = p.name)))
        """,
        fires=_group_fires,
        rows=_group_rows,
    ),
    Family(
        "matter_sign",
        "The sign a body line gives when it holds what the matter asked about wants or fears "
        "(§9.5; the items are the rows of matter_preference).",
        "the matter asked about, a body's place, its state (value, void, 月破, 日衝) and what "
        "the body holds (the items of `matter_preference`: relatives, day spirits, the "
        "noble's generals, 神煞)",
        (
            Column("matter", MATTER, "The matter asked about"),
            Column("place", BODY, "The body: 卦身 or 世身"),
            Column("attitude", ATTITUDE, "want or fear"),
            Column("value", VALUE, "The body line's value 6..9"),
            flag("is_void", "1 if the body line is void 旬空"),
            flag("is_month_break", "1 if the month breaks the body line 月破"),
            flag("is_day_clash", "1 if the day clashes the body line 日衝"),
        ),
        "lp.position",
        """
        -- CROSS JOIN keeps the reading and its matter first: most readings ask about none
        CROSS JOIN matter_sign mt
        CROSS JOIN line_place lp
        CROSS JOIN hexagram_line l
        CROSS JOIN ganzhi d
        CROSS JOIN day_spirit ds
        CROSS JOIN line_najia ln
        CROSS JOIN reading_line rl
        CROSS JOIN branch_on_day bd
        CROSS JOIN branch_in_month bm
        LEFT JOIN ganzhi hg ON hg.name = r.hour_gz
        LEFT JOIN noble_hour nh ON nh.hour_branch = hg.branch
        LEFT JOIN noble_general ng
          ON ng.day_stem = d.stem AND ng.half = nh.half AND ng.branch = l.branch
        WHERE mt.matter = r.matter AND lp.king_wen = r.primary_kw AND lp.place = mt.place
          AND l.king_wen = r.primary_kw AND l.position = lp.position
          AND d.name = r.day_gz AND ds.day_stem = d.stem AND ds.position = lp.position
          AND ln.king_wen = r.primary_kw AND ln.position = lp.position
          AND ln.half_year = r.najia_half
          AND rl.reading_id = r.id AND rl.position = lp.position AND mt.value = rl.value
          AND bd.day_gz = r.day_gz AND bd.branch = l.branch AND mt.is_void = bd.is_void
          AND mt.is_day_clash = bd.is_day_clash
          AND bm.month_branch = r.month_branch AND bm.branch = l.branch
          AND mt.is_month_break = bm.is_month_break
          AND EXISTS (
          SELECT 1 FROM matter_preference mp
          WHERE mp.matter = r.matter AND mp.attitude = mt.attitude
            AND (mp.item_kind = 'relative' AND mp.item = l.relative
              OR mp.item_kind = 'spirit' AND mp.item = ds.spirit
              OR mp.item_kind = 'general' AND mp.item = ng.general
              OR mp.item_kind = 'shensha' AND EXISTS (
                SELECT 1 FROM shensha_on so
                WHERE so.day_gz = r.day_gz AND so.ganzhi = ln.ganzhi AND so.shensha = mp.item)))
        """,
        fires=_matter_fires,
        rows=lambda: (asdict(m) for m in matter_rules()),
    ),
    Family(
        "matter_relief_sign",
        "The sign a void body line gives for a matter it relieves: a worry (§9.5).",
        "the matter asked about, a body's place and whether it is void",
        (
            Column("matter", MATTER, "The matter asked about"),
            Column("place", BODY, "The body: 卦身 or 世身"),
            flag("is_void", "1 if the body line is void 旬空"),
        ),
        "lp.position",
        """
        CROSS JOIN matter_relief_sign mf
        CROSS JOIN line_place lp
        CROSS JOIN hexagram_line l
        CROSS JOIN branch_on_day bd
        WHERE mf.matter = r.matter AND lp.king_wen = r.primary_kw AND lp.place = mf.place
          AND l.king_wen = r.primary_kw AND l.position = lp.position
          AND bd.day_gz = r.day_gz AND bd.branch = l.branch AND bd.is_void = mf.is_void
        """,
        fires=_relief_fires,
        rows=lambda: (asdict(m) for m in relief_rules()),
    ),
    Family(
        "use_state_sign",
        "Signs of the 用神 and its chain by where each is and what the day and month do to it: "
        "用神被克, 忌神被克, 原神動生用, 忌神動克用, 用神空, 用神破, 用神伏藏 (§6.5–6.6; "
        "docs/use.md). Only a reading that names its subject has them.",
        "a role of the reading's subject (v_reading_use): where it is, whether it moves, is "
        "void, is month-broken, whether the day or the month controls it",
        (
            Column("role", ROLE, ROLE_DOC),
            Column("source", USE_SOURCE, "Where it is: visible, hidden, world or response"),
            flag("is_moving", "1 if it moves"),
            VOID,
            BREAK,
            flag("day_controls", "1 if the day branch controls it 剋"),
            flag("month_controls", "1 if the month branch controls it 剋"),
        ),
        "u.position",
        """
        JOIN v_reading_use u ON u.reading_id = r.id
        JOIN use_state_sign us ON us.role = u.role AND us.source = u.source
          AND us.is_moving = u.is_moving AND us.is_void = u.is_void
          AND us.is_month_break = u.is_month_break AND us.day_controls = u.day_controls
          AND us.month_controls = u.month_controls
        """,
        keys=lambda r: [
            (
                u.position,
                (
                    u.role,
                    u.source,
                    u.is_moving,
                    u.is_void,
                    u.is_month_break,
                    u.day_controls,
                    u.month_controls,
                ),
            )
            for u in r.use
        ],
    ),
    Family(
        "use_strength_sign",
        "Signs of the 用神's strength: 用神旺 and 用神衰 (standard; docs/use.md).",
        "a role's strength in the month and whether the day generates or helps it",
        (
            Column("role", ROLE, ROLE_DOC),
            Column("strength", STRENGTH, STRENGTH_DOC),
            flag("day_generates", "1 if the day branch generates it 生"),
            flag("day_helps", "1 if the day branch helps it 扶"),
        ),
        "u.position",
        """
        JOIN v_reading_use u ON u.reading_id = r.id
        JOIN use_strength_sign uw ON uw.role = u.role AND uw.strength = u.strength
          AND uw.day_generates = u.day_generates AND uw.day_helps = u.day_helps
        """,
        keys=lambda r: [
            (u.position, (u.role, u.strength, u.day_generates, u.day_helps)) for u in r.use
        ],
    ),
    Family(
        "use_change_sign",
        "Signs of a moving 用神's change: 化回頭克 化回頭生 化進神 化退神 (standard; §8.14 for the "
        "world line).",
        "a moving role's branch and its changed line's branch",
        (
            Column("role", ROLE, ROLE_DOC),
            Column("branch", BRANCH, "Its branch"),
            Column("changed_branch", BRANCH, "The changed line's branch"),
        ),
        "u.position",
        """
        JOIN v_reading_use u ON u.reading_id = r.id
        JOIN ganzhi ucg ON ucg.name = u.changed_ganzhi
        JOIN use_change_sign uc ON uc.role = u.role AND uc.branch = u.branch
          AND uc.changed_branch = ucg.branch
        """,
        keys=lambda r: [
            (u.position, (u.role, u.branch, u.changed_branch))
            for u in r.use
            if u.changed_branch is not None
        ],
    ),
    Family(
        "use_fly_sign",
        "The sign of a hidden 用神 whose 飛神 moves or is clashed by the day: 伏神得出 "
        "(standard; docs/use.md).",
        "a hidden role's 飛神: whether it moves, whether the day clashes it",
        (
            Column("role", ROLE, ROLE_DOC),
            flag("fly_is_moving", "1 if its 飛神 moves"),
            flag("fly_is_day_clash", "1 if the day clashes its 飛神"),
        ),
        "u.position",
        """
        JOIN v_reading_use u ON u.reading_id = r.id
        JOIN use_fly_sign uf ON uf.role = u.role AND uf.fly_is_moving = u.fly_is_moving
          AND uf.fly_is_day_clash = u.fly_is_day_clash
        """,
        keys=lambda r: [
            (u.position, (u.role, u.fly_is_moving, u.fly_is_day_clash))
            for u in r.use
            if u.fly_is_moving is not None
        ],
    ),
    Family(
        "use_lodge_sign",
        "盡善 (§8.12 commentary): the 用神 on a line whose mansion culminates at dusk this "
        "month 昏中, with the sun or the moon in that mansion at the cast (日纏 or 月麗 on the "
        "line, lodge_sign).",
        "the 用神's place and line mansion, the month, and 日纏 or 月麗 on its line",
        (
            Column("month_branch", BRANCH, "The month's branch"),
            Column("mansion", MANSION, "The month's 昏中 mansion, which the line's must be"),
            Column("role", ROLE, ROLE_DOC),
            Column("source", USE_SOURCE, "Where it is: visible, world or response (not hidden)"),
        ),
        "l.position",
        f"""
        -- CROSS JOIN keeps this order: the month's dusk mansion on a line of the hexagram,
        -- the sun or the moon on it (日纏 or 月麗), and only then the 用神 on that line, in a
        -- subquery, so that v_reading_use is worked out only for the few readings that meet
        -- the rest (a join with it would build the roles of every reading first)
        CROSS JOIN use_lodge_sign ul
        CROSS JOIN hexagram_line l
        WHERE ul.month_branch = r.month_branch
          AND l.king_wen = r.primary_kw AND l.mansion = ul.mansion
          AND EXISTS (
          SELECT 1 FROM lodge_sign lg JOIN reading_header hd ON hd.reading_id = r.id
          WHERE lg.mansion = l.mansion AND {at_stored_lodge("lg")})
          AND EXISTS (
          SELECT 1 FROM v_reading_use u
          WHERE u.reading_id = r.id AND u.role = ul.role AND u.source = ul.source
            AND u.position = l.position)
        """,
        fires=_use_lodge_fires,
        rows=lambda: (asdict(m) for m in use_lodge_rules()),
    ),
)


@cache
def families() -> dict[str, Family]:
    """The families by table name, in the registry's order."""
    return {f.table: f for f in FAMILIES}


def family_rows(table: str) -> list[dict[str, Any]]:
    """The rows of a family's table (without passage and basis): its ``rows``, or every key
    of its domains with every sign that fires for it."""
    f = families()[table]
    if f.rows is not None:
        return list(f.rows())
    columns = [c.name for c in f.columns]
    return [
        {**{c: getattr(key, c) for c in columns}, "sign": name}
        for key in f.key_rows()
        for name in firing(table, key)
    ]


# the key of each family whose rows are every key of its domains (tests build keys with it)
KEYS: dict[str, type] = {f.table: f.key for f in FAMILIES if f.rows is None}
