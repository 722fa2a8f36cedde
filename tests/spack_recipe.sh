#!/bin/sh
# packaging/spack/package.py against a stand-in of Spack's package API
# (tests/spack_recipe.py says what that does and does not check).
exec "${PYTHON:-python3}" "${top_srcdir:?}/tests/spack_recipe.py" "$top_srcdir"
