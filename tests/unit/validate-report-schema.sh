#!/bin/sh
# validate-report-schema.sh - checks that the job report mpicheck writes is
# valid against docs/report-schema.json (JSON Schema draft 2020-12), both for
# a full job and for one where no rank reached MPI_Init (all-null header).
#
#   validate-report-schema.sh [WRITE_SAMPLE_REPORT [SCHEMA]]
#
# WRITE_SAMPLE_REPORT: the tests/unit/write_sample_report program (default:
# $WRITE_SAMPLE_REPORT, else ./tests/unit/write_sample_report, else
# ./write_sample_report). SCHEMA defaults to docs/report-schema.json next to
# this script's source tree ($srcdir is honoured, as automake sets it).
#
# Exit: 0 valid, 1 invalid or the program failed, 77 (skip) only when
# python3 or its jsonschema module (Debian: python3-jsonschema) is missing.

here=$(cd "$(dirname "$0")" && pwd)

prog=${1:-${WRITE_SAMPLE_REPORT:-}}
if [ -z "$prog" ]; then
    for p in ./tests/unit/write_sample_report ./write_sample_report; do
        [ -x "$p" ] && prog=$p && break
    done
fi
schema=${2:-}
if [ -z "$schema" ]; then
    for s in "${srcdir:+$srcdir/docs/report-schema.json}" \
             "${srcdir:+$srcdir/../../docs/report-schema.json}" \
             "$here/../../docs/report-schema.json"; do
        [ -n "$s" ] && [ -f "$s" ] && schema=$s && break
    done
fi

if [ -z "$prog" ] || [ ! -x "$prog" ]; then
    echo "validate-report-schema: write_sample_report not found (give its path as argument 1)" >&2
    exit 1
fi
if [ -z "$schema" ] || [ ! -f "$schema" ]; then
    echo "validate-report-schema: docs/report-schema.json not found (give its path as argument 2)" >&2
    exit 1
fi

if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 not found; cannot validate against $schema" >&2
    exit 77
fi
if ! python3 -c 'import jsonschema; jsonschema.Draft202012Validator' >/dev/null 2>&1; then
    echo "SKIP: python3 module jsonschema (with draft 2020-12 support, >= 4.0) not found;" \
         "install python3-jsonschema to run this test" >&2
    exit 77
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

"$prog" "$tmp/full.json" || { echo "FAIL: $prog $tmp/full.json" >&2; exit 1; }
"$prog" --unknown-job "$tmp/unknown.json" ||
    { echo "FAIL: $prog --unknown-job $tmp/unknown.json" >&2; exit 1; }

# The schema itself is checked first: a broken schema would accept anything.
python3 - "$schema" "$tmp/full.json" "$tmp/unknown.json" <<'EOF'
import json, sys
import jsonschema

schema = json.load(open(sys.argv[1], encoding="utf-8"))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
failed = 0
for path in sys.argv[2:]:
    doc = json.load(open(path, encoding="utf-8"))
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    for e in errors:
        where = "/".join(str(p) for p in e.absolute_path) or "(root)"
        print("FAIL: %s: %s: %s" % (path, where, e.message), file=sys.stderr)
    # What a schema cannot express: the summary matches the findings.
    sev = [f["severity"] for f in doc["findings"]]
    if doc["summary"] != {"errors": sev.count("error"), "warnings": sev.count("warning")}:
        print("FAIL: %s: summary does not match findings" % path, file=sys.stderr)
        errors.append(None)
    failed |= bool(errors)
    if not errors:
        print("ok: %s" % path)
sys.exit(1 if failed else 0)
EOF
