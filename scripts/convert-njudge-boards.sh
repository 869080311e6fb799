#!/bin/sh
# Converts njudge's variant maps into the shipped boards/<name>/ folders (dipjudge's CSV
# format), from a checkout of njudge (https://github.com/jonmarkgo/njudge, read at
# 9b0b270): scripts/convert-njudge-boards.sh /path/to/njudge
#
# Each scripts/njudge-boards/<name>.toml is the board's board.toml in njudge's format: its
# powers, victory and rule options (from njudge's variant.c and variant.h) and the njudge
# files it is read from. The board is read and checked as the judge reads it, then written
# as CSV. Read the diff before committing: the files are data the judge ships.
set -eu
njudge=${1:?usage: $0 /path/to/njudge}
cd "$(dirname "$0")/.."
cargo build --quiet --example convert_njudge_board
for spec in scripts/njudge-boards/*.toml; do
    target/debug/examples/convert_njudge_board "$njudge/data" "$spec" boards
done
