#!/bin/sh
# --sarif=FILE: the SARIF logs of real runs pass the SARIF Multitool's
# validator (Microsoft's SARIF SDK: the official SARIF 2.1.0 JSON schema plus
# its SARIF rules, such as indexes that must point into their arrays, and its
# rules for GitHub code scanning, such as a help text on every rule) with no
# error and no warning, and the official schema with jsonschema (draft
# 2020-12), which also catches what the Multitool lets through (a result's
# "level" outside the schema's enumeration). Deliberately broken logs must be
# rejected, so the test cannot pass by validating nothing.
#
# The Multitool and the schema come from the npm package
# @microsoft/sarif-multitool-linux, fetched by scripts/check (mc_sarif_tool in
# scripts/setup.sh) into build/tools/sarif-multitool, or
# $MC_SARIF_TOOL_DIR. Without them this test is skipped (exit 77) and
# says so; scripts/check fails when it cannot fetch them.
set -u
src=${top_srcdir:?}; b=${top_builddir:?}; flavor=${MPI_FLAVOR:?}; mpicc=${MPICC:?}
py=${PYTHON:-python3}
tooldir=${MC_SARIF_TOOL_DIR:-$src/build/tools/sarif-multitool}
mt="$tooldir/package/Sarif.Multitool"
schema="$tooldir/package/sarif-2.1.0.json"
if [ ! -x "$mt" ] || [ ! -s "$schema" ]; then
    echo "SKIP sarif: no SARIF Multitool in $tooldir (./scripts/check fetches it); no SARIF log was validated"
    exit 77
fi
if ! "$py" -c 'import jsonschema; jsonschema.Draft202012Validator' >/dev/null 2>&1; then
    echo "SKIP sarif: python module jsonschema (>= 4, Debian python3-jsonschema) missing; no SARIF log was validated"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcsarif.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
case $flavor in
    openmpi) extra="--oversubscribe"; MPICHECK_INTERNAL_LIB_OPENMPI="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_OPENMPI ;;
    *) extra=""; MPICHECK_INTERNAL_LIB_MPICH="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_MPICH ;;
esac
# A .NET program: invariant globalization spares it libicu. SARIF2006 (URIs
# should be reachable) would look up the $schema URI on the network: off.
DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1; export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT
cat > "$tmp/multitool.xml" <<'EOF'
<?xml version="1.0" encoding="utf-8"?>
<Properties>
  <Properties Key="SARIF2006.UrisShouldBeReachable.Options">
    <Property Key="RuleEnabled" Value="Disabled" Type="Driver.RuleEnabledState" />
  </Properties>
</Properties>
EOF

# validate LOG [EXPECTED-CODES]: runs both validators on LOG. Without
# EXPECTED-CODES, succeeds when neither reports anything; with them (e.g.
# "JSON1002 SARIF1009 schema:level"), succeeds when every code was reported:
# a Multitool rule id, or schema:<keyword path end> for jsonschema.
# The Multitool exits 0 whatever it finds, so its verdict is read from the
# SARIF log it writes: the run must have succeeded and hold no result (only
# errors and warnings are written, --level).
validate() {
    n=$((n + 1))
    timeout -k 5 120 "$mt" validate "$1" --config "$tmp/multitool.xml" --rule-kind "Sarif;Ghas" --level "Error;Warning" \
        --output "$tmp/mt$n.sarif" --log ForceOverwrite > "$tmp/mt$n.out" 2>&1
    mrc=$?
    "$py" - "$schema" "$1" "$tmp/mt$n.sarif" "$mrc" "$tmp/mt$n.out" "${2:-}" <<'EOF'
import json, sys
import jsonschema

schema_path, log_path, mt_log, mt_rc, mt_out, expected = sys.argv[1:7]
expected = expected.split()
problems = []     # why the validators could not give a verdict
reported = []     # (code, text) of every error or warning found in the log
try:
    with open(mt_log, encoding="utf-8-sig") as f:
        run = json.load(f)["runs"][0]
    inv = run.get("invocations") or [{}]
    if mt_rc != "0" or not inv[0].get("executionSuccessful"):
        problems.append("the Multitool did not run to completion (exit %s)" % mt_rc)
    for kind in ("toolConfigurationNotifications", "toolExecutionNotifications"):
        for note in inv[0].get(kind, []):
            if note.get("level", "warning") == "error":
                problems.append("Multitool: %s: %s" % (note.get("descriptor", {}).get("id"),
                                                       note.get("message", {}).get("text")))
    rules = run["tool"]["driver"].get("rules", [])
    for r in run.get("results", []):
        if r.get("level", "warning") not in ("error", "warning"):
            continue
        rule = r.get("ruleId", "?")
        text = r.get("message", {}).get("text")
        if text is None:   # the message is the rule's template with arguments
            idx = r.get("ruleIndex", -1)
            tpl = rules[idx].get("messageStrings", {}) if 0 <= idx < len(rules) else {}
            tpl = tpl.get(r.get("message", {}).get("id"), {}).get("text", "")
            args = r.get("message", {}).get("arguments", [])
            try:
                text = tpl.format(*args) if tpl else " ".join(args)
            except (IndexError, KeyError, ValueError):
                text = " ".join(args)
        line = ""
        for loc in r.get("locations", [])[:1]:
            line = "line %s: " % loc.get("physicalLocation", {}).get("region", {}).get("startLine", "?")
        reported.append((rule, "Multitool %s %s: %s%s" % (r.get("level", "warning"), rule, line, text)))
except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
    problems.append("no usable Multitool log %s (exit %s): %s" % (mt_log, mt_rc, e))
try:
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    with open(log_path, encoding="utf-8") as f:
        doc = json.load(f)
    for e in jsonschema.Draft202012Validator(schema).iter_errors(doc):
        where = "/".join(str(p) for p in e.absolute_path) or "(root)"
        code = "schema:%s" % (e.absolute_path[-1] if e.absolute_path else e.validator)
        if e.validator == "required":
            code = "schema:required"
        msg = e.message if len(e.message) <= 300 else e.message[:300] + "..."
        reported.append((code, "schema: %s: %s" % (where, msg)))
except (OSError, ValueError) as e:
    reported.append(("schema:json", "schema: %s is not JSON: %s" % (log_path, e)))
for p in problems:
    print("  " + p)
if problems:
    with open(mt_out, encoding="utf-8", errors="replace") as f:
        print("  | " + "\n  | ".join(f.read().splitlines()[-15:]))
    sys.exit(1)
codes = {c for c, _ in reported}
if expected:
    missing = [c for c in expected if c not in codes]
    for c in missing:
        print("  the broken log was not flagged with %s" % c)
    for _, t in reported[:10]:
        print("  (reported) " + t)
    sys.exit(1 if missing else 0)
for _, t in reported[:10]:
    print("  " + t)
if len(reported) > 10:
    print("  ... and %d more" % (len(reported) - 10))
sys.exit(1 if reported else 0)
EOF
}

n=0
first=""
# PROGRAM:NP:CLASS:EXIT:DIR - a deadlock across four ranks (a result with
# three related locations), a type mismatch, and a run with six findings.
# Run from the source tree, as a CI job runs from its checkout, the source
# files become relative URIs; run from elsewhere, file:// URIs.
for spec in deadlock_ssend_cycle:4:deadlock:3:src type_mismatch_int_float:2:type-mismatch:3:tmp \
            resource_leak_handles:2:resource-leak:0:tmp; do
    prog=${spec%%:*}; rest=${spec#*:}; np=${rest%%:*}; rest=${rest#*:}
    cls=${rest%%:*}; rest=${rest#*:}; want=${rest%%:*}; cwd=$tmp
    [ "${rest#*:}" = src ] && cwd=$src
    if ! $mpicc -g -O0 -o "$tmp/$prog" "$src/tests/programs/$prog.c" 2> "$tmp/err"; then
        bad "$prog: does not compile"; cat "$tmp/err"; continue
    fi
    # shellcheck disable=SC2086
    (cd "$cwd" && timeout -k 5 120 "$b/src/mpicheck" --timeout=1 --sarif="$tmp/$prog.sarif" \
        -- $extra -np "$np" "$tmp/$prog" > "$tmp/out" 2> "$tmp/err")
    rc=$?
    if [ "$rc" -ne "$want" ] || ! grep -q "\"ruleId\": \"$cls\"" "$tmp/$prog.sarif" 2>/dev/null; then
        bad "$prog: expected exit $want and a $cls result in the SARIF log, got exit $rc"
        tail -20 "$tmp/err"
        continue
    fi
    start=$(date +%s%N)
    if validate "$tmp/$prog.sarif" > "$tmp/v.out"; then
        ms=$((($(date +%s%N) - start) / 1000000))
        nres=$(grep -c '"ruleId"' "$tmp/$prog.sarif")
        ok "$prog: SARIF log ($nres result$([ "$nres" -eq 1 ] || echo s)) passes the SARIF Multitool and the SARIF 2.1.0 schema (${ms} ms)"
        [ -n "$first" ] || first="$tmp/$prog.sarif"
    else
        bad "$prog: SARIF log $tmp/$prog.sarif is not valid:"
        cat "$tmp/v.out"
        cp "$tmp/$prog.sarif" "$b/tests/$prog-$flavor.sarif" 2>/dev/null &&
            echo "  kept as $b/tests/$prog-$flavor.sarif"
    fi
done

# A clean run that could not make some checks: they are the invocation's
# tool execution notifications. The program makes a communicator the checker
# cannot copy: an MPI_Comm_connect/accept pair with Open MPI; with MPICH
# 4.0, whose ports fail here, a split of an intercommunicator that leaves
# rank 0 out (docs/checks.md, intercomm-nonuniform).
case $flavor in
    openmpi) prog=collective_mismatch_ok_connect_accept ;;
    *) prog=intercomm_ok_split_leader_out ;;
esac
if $mpicc -g -O0 -o "$tmp/$prog" "$src/tests/programs/$prog.c" 2> "$tmp/err"; then
    # shellcheck disable=SC2086
    (cd "$tmp" && timeout -k 5 120 "$b/src/mpicheck" --timeout=1 --sarif="$tmp/$prog.sarif" \
        -- $extra -np 4 "$tmp/$prog" > "$tmp/out" 2> "$tmp/err")
    rc=$?
    if [ "$rc" -ne 0 ] || ! grep -q '"toolExecutionNotifications"' "$tmp/$prog.sarif" 2>/dev/null ||
       ! grep -q '"id": "unchecked-communicator"' "$tmp/$prog.sarif"; then
        bad "$prog: expected exit 0 and the unchecked communicators as tool execution notifications, got exit $rc"
        tail -20 "$tmp/err"
    elif validate "$tmp/$prog.sarif" > "$tmp/v.out"; then
        ok "$prog: the checks not made are tool execution notifications; the log passes the SARIF Multitool and the SARIF 2.1.0 schema"
    else
        bad "$prog: SARIF log with tool execution notifications is not valid:"
        cat "$tmp/v.out"
    fi
else
    bad "$prog: does not compile"; cat "$tmp/err"
fi

# A suppressed finding (--suppressions) stays in the log, with SARIF's
# "suppressions" on its result.
prog=resource_leak_handles
printf '{\n   all-leaks\n   mpicheck:resource-leak\n}\n' > "$tmp/leaks.supp"
if $mpicc -g -O0 -o "$tmp/$prog" "$src/tests/programs/$prog.c" 2> "$tmp/err"; then
    # shellcheck disable=SC2086
    (cd "$tmp" && timeout -k 5 120 "$b/src/mpicheck" --timeout=1 --suppressions="$tmp/leaks.supp" \
        --sarif="$tmp/supp.sarif" -- $extra -np 2 "$tmp/$prog" > "$tmp/out" 2> "$tmp/err")
    rc=$?
    if [ "$rc" -ne 0 ] || ! grep -q '"justification": "all-leaks"' "$tmp/supp.sarif" 2>/dev/null; then
        bad "suppressed findings: expected exit 0 and results with suppressions (justification all-leaks), got exit $rc"
        tail -20 "$tmp/err"
    elif validate "$tmp/supp.sarif" > "$tmp/v.out"; then
        ok "suppressed findings: results with SARIF suppressions; the log passes the SARIF Multitool and the SARIF 2.1.0 schema"
    else
        bad "suppressed findings: the SARIF log is not valid:"
        cat "$tmp/v.out"
    fi
else
    bad "$prog: does not compile"; cat "$tmp/err"
fi

# The validators themselves, on broken copies of a good log: each defect must
# be reported. Found by hand: the Multitool reports nothing at all, not even
# other defects, for a log with a "level" SARIF does not have; and it runs
# its SARIF rules only on a log the schema accepts. Hence both validators,
# and one defect per copy.
# CORRUPTION:EXPECTED-CODES (codes separated by commas)
if [ -n "$first" ]; then
    for spec in no-version:JSON1002,schema:required rule-index:SARIF1009 bad-level:schema:level; do
        what=${spec%%:*}; codes=$(echo "${spec#*:}" | tr , ' ')
        "$py" - "$first" "$tmp/$what.sarif" "$what" <<'EOF'
import json, sys
log = json.load(open(sys.argv[1], encoding="utf-8"))
res = log["runs"][0]["results"][0]
if sys.argv[3] == "no-version":
    del log["version"]
elif sys.argv[3] == "rule-index":
    res["ruleIndex"] = 99          # there are 14 rules
else:
    res["level"] = "fatal"
json.dump(log, open(sys.argv[2], "w", encoding="utf-8"), indent=2)
EOF
        if validate "$tmp/$what.sarif" "$codes" > "$tmp/v.out"; then
            ok "broken SARIF log ($what) rejected: $codes"
        else
            bad "broken SARIF log ($what) not rejected with $codes:"
            cat "$tmp/v.out"
        fi
    done
else
    bad "no valid SARIF log to break: the validators were not checked"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
