#!/bin/sh
# docs/new-module.md's skeleton of a family of checks compiles against the
# library's real headers with the library's warnings (a renamed field or
# header makes the document wrong, and this test fail).
set -u
src=${top_srcdir:?}; b=${top_builddir:?}; mpicc=${MPICC:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcskel.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
python3 - "$src/docs/new-module.md" "$tmp" <<'PY' || { echo "FAIL skeleton: docs/new-module.md has no example.h and example.c blocks"; echo "0 passed, 1 failed"; exit 1; }
import re, sys
text = open(sys.argv[1]).read()
blocks = re.findall(r"`src/example/(example\.[ch])`:\s*\n\s*```c\n(.*?)```", text, re.S)
names = {n for n, _ in blocks}
if names != {"example.h", "example.c"}:
    sys.exit(1)
for n, body in blocks:
    open(sys.argv[2] + "/" + n, "w").write(body)
PY
inc=""
for d in util report tracking match runtime; do inc="$inc -I$src/src/$d"; done
# shellcheck disable=SC2086
if $mpicc -std=gnu11 -Wall -Wextra -Wmissing-prototypes -Wredundant-decls -Werror -c \
        -I"$tmp" $inc -I"$b/wrappers" -o "$tmp/example.o" "$tmp/example.c" 2> "$tmp/err" \
   && nm "$tmp/example.o" | grep -q ' [DR] mc_example_module$'; then
    echo "PASS skeleton: docs/new-module.md's module compiles against src/ and defines mc_example_module"
    echo "1 passed, 0 failed"
else
    echo "FAIL skeleton: docs/new-module.md's module does not compile against src/"
    cat "$tmp/err"
    echo "0 passed, 1 failed"; exit 1
fi
