//! Integration tests: a table of contents, one module per feature.
