"""Reading on every core: a forked child reads (forked.py), the next PDFs of a batch are read while
the current file is written (read_ahead.py). What a child computes is what the parent would, so a
failed child only means the parent reads the file itself."""
