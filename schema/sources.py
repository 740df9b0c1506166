"""Every ingested file, keyed by its SHA-256 so loading it twice changes nothing."""


from datetime import datetime

from sqlalchemy import BigInteger, CheckConstraint, DateTime, String, Text, func
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, non_negative


class SourceFile(Base):
    __tablename__ = "source_files"
    __table_args__ = (
        CheckConstraint("sha256 ~ '^[0-9a-f]{64}$'", name="sha256_hex"),
        *non_negative("size_bytes"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    path: Mapped[str] = mapped_column(Text)  # as given on the command line, for the user's reference
    file_name: Mapped[str] = mapped_column(Text)
    format: Mapped[str] = mapped_column(Text)  # the parser module's FORMAT
    parser_version: Mapped[str] = mapped_column(Text)
    size_bytes: Mapped[int] = mapped_column(BigInteger)
    # A document's content (reports and tables), so its PDF and text copies are one document (0015).
    content_fingerprint: Mapped[str | None] = mapped_column(String(64), index=True)
    ingested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
