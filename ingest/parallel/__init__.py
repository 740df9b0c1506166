"""Reading on every core: a forked child reads (forked.py), the next PDFs of a batch are read while
the current file is written (read_ahead.py), and `esrpdb ingest`'s first PDF is read while the
command loads the database's side (ingest/reading.py, home of read_hashed: read and draft one file,
no database code). What a child computes is what the parent would, so a failed child only
means the parent reads the file itself."""
