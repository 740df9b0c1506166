"""A model cell's words after the model that say how many or what kind of hardware it is ("QX400 SSD (x3)",
"HS-24 JBOD enclosure") are not the model; a name whose words are all the model's stays whole. The names
are made up (SYNTHETIC); the document is a lab comparison by other hands (fixtures/other_hands/a5_02,
SYNTHETIC), its models renamed too.
"""

from __future__ import annotations

import pytest

from esrpdb.ingest.draft import draft_document
from esrpdb.ingest.draft.spellings import model_name
from esrpdb.ingest.formats import document as document_text
from tests.helpers import REPO_ROOT


@pytest.mark.parametrize("printed, model", [
    ("QX400 SSD (x3)", "QX400"), ("HS-24 JBOD enclosure", "HS-24"), ("Nimbo CS700 array", "Nimbo CS700"),
    ("KX-12 (3x)", "KX-12"), ("VNX5300", "VNX5300"), ("PowerStack MD1220", "PowerStack MD1220"),
    ("Storage Array", "Storage Array"), ("Unit 400F", "Unit 400F"), ("SSD", "SSD")])
def test_the_count_and_the_kind_of_hardware_after_a_model_are_not_the_model(printed, model):
    assert model_name(printed) == model


SOURCE = (REPO_ROOT / "fixtures" / "other_hands" / "oh_third-party_a5_02.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("first, second", [("QX400", "HS-24"), ("ZT900", "RM-31")])
def test_a_model_row_gives_each_system_its_model_without_them(first, second):
    text = SOURCE.replace("QX400", first).replace("HS-24", second)
    drafted = draft_document(document_text.parse("paper.txt", text.encode()))
    models = sorted(f.value for s in drafted.systems for f in s.facts if f.fact == "model")
    assert models == sorted([first, second])
