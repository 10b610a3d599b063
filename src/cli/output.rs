//! Printing tool results: the text (or JSON with `--json`) to stdout, rendered lines to stderr.
