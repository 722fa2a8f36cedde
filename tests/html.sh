#!/bin/sh
# --html=FILE (issue 16, item 5): one self-contained page with every finding
# of the JSON report (class, message, ranks, calls, stacks, source lines),
# a deadlock's graph as inline SVG, nothing fetched from the network; and
# Debian's chromium, headless, loads it with no console error and draws it.
set -u
src=${top_srcdir:?}; b=${top_builddir:?}; flavor=${MPI_FLAVOR:?}; mpicc=${MPICC:?}; py=${PYTHON:-python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mchtml.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0; skip=""
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/err" ] && tail -20 "$tmp/err"; }
case $flavor in
    openmpi) extra="--oversubscribe"; MPICHECK_INTERNAL_LIB_OPENMPI="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_OPENMPI ;;
    *) extra=""; MPICHECK_INTERNAL_LIB_MPICH="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_MPICH ;;
esac
$mpicc -g -O0 -o "$tmp/rr" "$src/tests/programs/deadlock_recv_recv.c" 2> "$tmp/err" &&
$mpicc -g -O0 -o "$tmp/two" "$src/tests/terminal/two_findings.c" 2> "$tmp/err" || { bad "compile"; echo "$pass passed, $fail failed"; exit 1; }
# Run from the source tree, so the source files' paths resolve for excerpts.
# shellcheck disable=SC2086
(cd "$src" && timeout -k 5 120 "$b/src/mpicheck" --timeout=1 --graph="$tmp/g.dot" --html="$tmp/dl.html" --report="$tmp/dl.json" \
    -- $extra -np 2 "$tmp/rr" > "$tmp/out" 2> "$tmp/err")
# shellcheck disable=SC2086
(cd "$src" && timeout -k 5 120 "$b/src/mpicheck" --html="$tmp/two.html" --report="$tmp/two.json" \
    -- $extra -np 3 "$tmp/two" > "$tmp/out" 2> "$tmp/err")
# check.py PAGE REPORT [svg]: the page parses, holds every finding of the
# report, the source line of each call site, and fetches nothing.
cat > "$tmp/check.py" <<'PY'
import html, html.parser, json, re, sys
page, report = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
want_svg = len(sys.argv) > 3
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.text = []; self.urls = []; self.stack = []
    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("src", "href") and v and not v.startswith("#"):
                self.urls.append(v)
    def handle_data(self, d): self.text.append(d)
p = P(); p.feed(page); text = "".join(p.text)
problems = []
if p.urls: problems.append("the page refers to %s" % p.urls)
if re.search(r"https?://", page.replace("http://www.w3.org/", "")): problems.append("a network address in the page")
for f in report["findings"]:
    if f["class"] not in text: problems.append("class %s missing" % f["class"])
    if f["message"] not in text: problems.append("message missing: %s" % f["message"][:60])
    for c in f["calls"]:
        if c["call"] not in text: problems.append("call %s missing" % c["call"])
        for name, val in c["args"].items():
            if val is not None and val not in text: problems.append("argument %s=%s missing" % (name, val))
    for fr in f["calls"][0]["stack"][:1]:
        if fr.get("file") and ("%s:%d" % (fr["file"], fr["line"])) not in text:
            problems.append("frame %s:%d missing" % (fr["file"], fr["line"]))
if "MPI_Type_contiguous(2, MPI_INT, &t);" not in text and "MPI_Recv(&in, 1, MPI_INT" not in text:
    problems.append("no source excerpt of a call site")
if want_svg and "<svg" not in page: problems.append("no inline SVG graph")
print("; ".join(problems) if problems else "ok")
sys.exit(1 if problems else 0)
PY
if [ -s "$tmp/dl.html" ] && r=$("$py" "$tmp/check.py" "$tmp/dl.html" "$tmp/dl.json" svg); then
    ok "--html, a deadlock: every finding, call, argument and call site of the JSON report, a source excerpt, the graph as inline SVG, nothing fetched"
else
    bad "--html, a deadlock: ${r:-no page written}"
fi
if [ -s "$tmp/two.html" ] && r=$("$py" "$tmp/check.py" "$tmp/two.html" "$tmp/two.json") \
   && grep -q '<tr><td>resource-leak</td><td>warning</td><td>2</td>' "$tmp/two.html"; then
    ok "--html, two leaks: both findings, and the summary table counts them by class and severity"
else
    bad "--html, two leaks: ${r:-no page written, or no summary row}"
fi

# In a real browser. chromium --headless as root needs --no-sandbox.
browser=""
for c in chromium chromium-browser; do command -v "$c" >/dev/null 2>&1 && browser=$c && break; done
if [ -z "$browser" ]; then
    echo "$pass passed, $fail failed"
    echo "SKIP chromium is not installed (./scripts/check installs Debian's chromium): the page was not loaded in a browser"
    [ "$fail" -eq 0 ] && exit 77
    exit 1
fi
# load PAGE NAME: the DOM chromium built (NAME.dom), a screenshot
# (NAME.png) and its log with the page's console messages (NAME.log).
load() {
    timeout -k 5 90 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$tmp/profile" \
        --enable-logging=stderr --v=0 --window-size=1200,1600 --dump-dom "file://$1" > "$tmp/$2.dom" 2> "$tmp/$2.log"
    timeout -k 5 90 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$tmp/profile" \
        --enable-logging=stderr --v=0 --window-size=1200,1600 --screenshot="$tmp/$2.png" "file://$1" >> "$tmp/$2.log" 2>&1
}
console_errors() { grep -E 'CONSOLE|Uncaught|console' "$tmp/$1.log" | grep -v '^$'; }
# The check of the console itself: a copy with a planted console.error.
sed 's|</body>|<script>console.error("planted error")</script></body>|' "$tmp/two.html" > "$tmp/planted.html"
load "$tmp/planted.html" planted
if console_errors planted | grep -q 'planted error'; then
    ok "chromium's log shows a console error planted in a copy of the page (the console check can fail)"
else
    bad "chromium's log does not show a planted console error: the console check below would prove nothing"; tail -5 "$tmp/planted.log"
fi
for page in dl two; do
    load "$tmp/$page.html" "$page"
    if [ -n "$(console_errors "$page")" ]; then
        bad "chromium: console messages for $page.html: $(console_errors "$page" | head -3)"
    elif ! [ -s "$tmp/$page.png" ] || [ "$(head -c 8 "$tmp/$page.png" | od -An -c | tr -d ' ')" != '211PNG\r\n032\n' ]; then
        bad "chromium: no screenshot of $page.html"; tail -5 "$tmp/$page.log"
    elif r=$("$py" "$tmp/check.py" "$tmp/$page.dom" "$tmp/$page.json"); then
        ok "chromium loads $page.html with no console message; its DOM holds every finding of the report; screenshot $(wc -c < "$tmp/$page.png") bytes"
    else
        bad "chromium's DOM of $page.html: $r"
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
