"""The draft stage's records are what `esrpdb draft` prints: the TOML a person confirms reads back
(through the manifest parser, with every check a hand-written manifest meets) to the very records
ingest loads. So a draft loaded unchanged confirms exactly what ingest believed, for every document
the project holds: the four seeds, the synthetic documents of the other families, the whitepaper."""

from __future__ import annotations

import pytest

from esrpdb.ingest.draft import draft_document
from esrpdb.ingest.draft.manifests import drafted_manifests
from esrpdb.ingest.draft.toml_text import render
from esrpdb.ingest.formats import document as document_format, manifest as manifest_format
from tests.helpers import FIXTURES

DOCUMENTS = sorted([*(FIXTURES / "documents").glob("*.txt"), *(FIXTURES / "documents").glob("*.md"),
                    *(FIXTURES / "synthetic_documents").glob("*.txt"), *(FIXTURES / "host_tests").glob("*.txt")])


@pytest.mark.parametrize("path", DOCUMENTS, ids=[p.stem[:24] for p in DOCUMENTS])
def test_the_printed_draft_reads_back_to_the_records_ingest_loads(path):
    document = document_format.parse(path.name, path.read_bytes())
    drafted = draft_document(document)
    manifests = drafted_manifests(drafted.systems, path.name, path.name,
                                  report_types=[r.report_type for r in document.reports])
    assert manifests
    for made in manifests:
        text = render(made, path.name)
        assert manifest_format.parse(made.manifest.source_name, text.encode()) == made.manifest, text
