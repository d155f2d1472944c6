"""The book's passages, cited by every rule and symbol row (§chapter.passage)."""

from __future__ import annotations

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from yimao_db.schema.base import Base


class SourcePassage(Base):
    __tablename__ = "source_passage"
    __doc__ = (
        "The 77 numbered passages of 《易冒》卷一 (numbering of shared/seed/passages.tsv). "
        "No text of the book is stored; rows elsewhere cite a passage by its id."
    )

    id: Mapped[str] = mapped_column(String(8), primary_key=True, comment="Citation, e.g. 8.11")
    chapter_no: Mapped[int] = mapped_column(comment="Chapter number 1..10")
    chapter: Mapped[str] = mapped_column(String(16), comment="Chapter title, e.g. 世應章第八")
    passage_no: Mapped[int] = mapped_column(comment="Passage number within the chapter")
    line_no: Mapped[int] = mapped_column(comment="Line of the main text in the seed file")
    commentary_line_no: Mapped[int] = mapped_column(
        comment="Line of the parenthesised commentary in the seed file"
    )
