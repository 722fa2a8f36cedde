"""The header line of a test program in tests/programs/ (run_programs.py
describes its keys): parse_header reads it, HeaderError says what is wrong
with it."""
import re

HEADER_RE = re.compile(r"^/\*\s*EXPECT:\s*(?P<body>.*?)\s*\*/\s*$")
# A Fortran program's first line: "! EXPECT: ...  NP: n" (a comment to its end).
FORTRAN_HEADER_RE = re.compile(r"^!\s*EXPECT:\s*(?P<body>.*?)\s*$")
FORTRAN_SUFFIXES = (".f90", ".F90", ".f", ".F")
KEY_RE = re.compile(r"([A-Z]+):\s*(\S+)")
CLASS_RE = re.compile(r"^[a-z][a-z0-9-]*$")
KNOWN_KEYS = {"EXPECT", "NP", "MODE", "TIMEOUT", "FLAVOR", "RANKS", "SKIPPED", "INJECT", "CAUSE", "SAYS", "ONLY"}
CAUSES = {"tag", "source", "communicator", "start"}
INJECT_RE = re.compile(r"^outcome-fail@([0-9]+)$")
SKIP_CHECKS = {"unchecked-communicator", "collective-handshake", "checker-memory", "unseen-mpi-init"}
RANKS_RE = re.compile(r"^[0-9]+(,[0-9]+)*$")


class HeaderError(Exception):
    pass


def parse_header(path):
    """Returns a dict with expect, np, mode, timeout, flavor, ranks (None when absent)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        first = f.readline().rstrip("\n")
    fortran = path.endswith(FORTRAN_SUFFIXES)
    m = (FORTRAN_HEADER_RE if fortran else HEADER_RE).match(first)
    if not m:
        raise HeaderError("first line is not a '%s' header: %r"
                          % ("! EXPECT: ... NP: n" if fortran else "/* EXPECT: ... NP: n */", first[:120]))
    text = "EXPECT: " + m.group("body")
    pairs = KEY_RE.findall(text)
    # Everything in the header must be KEY: value pairs.
    if KEY_RE.sub("", text).strip():
        raise HeaderError("unparsable header text: %r%s" % (
            first, " (RANKS: ranks separated by commas, no spaces)"
            if "RANKS:" in text else ""))
    fields = {}
    for key, value in pairs:
        if key not in KNOWN_KEYS:
            raise HeaderError("unknown header key %s" % key)
        if key in fields:
            raise HeaderError("header key %s given twice" % key)
        fields[key] = value
    if "NP" not in fields:
        raise HeaderError("header has no NP")
    expect = fields["EXPECT"]
    if expect != "OK" and not CLASS_RE.match(expect):
        raise HeaderError("EXPECT must be OK or a finding class, not %r" % expect)
    try:
        np_ = int(fields["NP"])
        if np_ < 1:
            raise ValueError
    except ValueError:
        raise HeaderError("NP must be a positive integer, not %r" % fields["NP"])
    mode = fields.get("MODE")
    if mode is not None and mode not in ("strict", "fast"):
        raise HeaderError("MODE must be strict or fast, not %r" % mode)
    timeout = fields.get("TIMEOUT")
    if timeout is not None:
        try:
            if float(timeout) <= 0:
                raise ValueError
        except ValueError:
            raise HeaderError("TIMEOUT must be a positive number, not %r" % timeout)
    flavor = fields.get("FLAVOR")
    if flavor is not None and flavor not in ("openmpi", "mpich"):
        raise HeaderError("FLAVOR must be openmpi or mpich, not %r" % flavor)
    ranks = fields.get("RANKS")
    if ranks is not None:
        if expect == "OK":
            raise HeaderError("RANKS needs EXPECT <class>, not EXPECT OK")
        if not RANKS_RE.match(ranks):
            raise HeaderError("RANKS must be world ranks separated by commas "
                              "(RANKS: 1,4,6), not %r" % ranks)
        listed = [int(r) for r in ranks.split(",")]
        if len(set(listed)) != len(listed):
            raise HeaderError("RANKS lists a rank twice: %r" % ranks)
        ranks = sorted(listed)
    skipped = fields.get("SKIPPED")
    if skipped is not None:
        skipped = sorted(set(skipped.split(",")))
        unknown = [s for s in skipped if s not in SKIP_CHECKS]
        if unknown:
            raise HeaderError("SKIPPED names checks the report does not know: %s (known: %s)"
                              % (", ".join(unknown), ", ".join(sorted(SKIP_CHECKS))))
    inject = fields.get("INJECT")
    if inject is not None:
        m = INJECT_RE.match(inject)
        if not m:
            raise HeaderError("INJECT must be outcome-fail@<world rank>, not %r" % inject)
        inject = {"MPICHECK_INTERNAL_TEST_OUTCOME_FAIL": m.group(1)}
    cause = fields.get("CAUSE")
    if cause is not None and (cause not in CAUSES or expect == "OK"):
        raise HeaderError("CAUSE must be one of %s, with EXPECT <class>, not %r"
                          % (", ".join(sorted(CAUSES)), cause))
    says = fields.get("SAYS")
    if says is not None:
        if expect == "OK":
            raise HeaderError("SAYS needs EXPECT <class>, not EXPECT OK")
        says = [part.replace("+", " ") for part in says.split("|")]
    only = fields.get("ONLY")
    if only is not None and (only != "yes" or expect == "OK"):
        raise HeaderError("ONLY: yes needs EXPECT <class> (every finding of that class), not %r with EXPECT %s"
                          % (only, expect))
    return {"expect": expect, "np": np_, "mode": mode, "timeout": timeout,
            "flavor": flavor, "ranks": ranks, "skipped": skipped or [], "inject": inject or {},
            "cause": cause, "says": says, "only": only == "yes"}
