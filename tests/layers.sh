#!/bin/sh
# The library's folders depend only downward (tests/layers.py): includes of
# src/ and the symbols of this build's compiled objects; the self-test
# plants an upward include, an upward symbol and a peer cycle.
set -u
src=${top_srcdir:?}; b=${top_builddir:?}
exec python3 "$src/tests/layers.py" --src "$src/src" --objects "$b/src" --self-test
