#!/bin/sh
# The arithmetic of scripts/bench's tables (bench/tables.py) on made-up runs.
set -u
src=${top_srcdir:?}
exec "${PYTHON:-python3}" "$src/tests/bench_tables.py"
