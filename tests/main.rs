//! Integration tests: a table of contents, one module per feature.

/// The command language: grammar/examples golden files and fuzz crashers.
mod grammar;
