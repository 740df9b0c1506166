"""Classes of mailbox count, as the published ESRP catalogue grouped systems to compare like with like.

Rows, not constants: the owner may change the bounds (`UPDATE mailbox_classes ...` as the catalogue's
owner) and every query, listing and the site follow. Revision 0018 seeds the defaults.
"""


from sqlalchemy import CheckConstraint, Integer, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base

# (order, label, lowest count, highest count or None): the defaults revision 0018 writes.
DEFAULT_MAILBOX_CLASSES = (
    (1, "up to 1,000 mailboxes", 0, 1000),
    (2, "1,001–5,000 mailboxes", 1001, 5000),
    (3, "5,001–10,000 mailboxes", 5001, 10000),
    (4, "over 10,000 mailboxes", 10001, None),
)


class MailboxClass(Base):
    __tablename__ = "mailbox_classes"
    __table_args__ = (
        CheckConstraint("min_mailbox_count >= 0", name="min_mailboxes_non_negative"),
        CheckConstraint("max_mailbox_count IS NULL OR max_mailbox_count >= min_mailbox_count", name="bounds_ordered"),
    )

    class_ordinal: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    label: Mapped[str] = mapped_column(Text, unique=True)
    min_mailbox_count: Mapped[int] = mapped_column(Integer)
    max_mailbox_count: Mapped[int | None] = mapped_column(Integer)  # NULL: no upper bound
