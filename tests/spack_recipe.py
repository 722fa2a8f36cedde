"""The Spack recipe packaging/spack/package.py without Spack (issue 20).

Spack is not installable here (not a Debian package, its repository is not
reachable), so the recipe is loaded against a stand-in of `spack.package`
that records its directives and runs its install() against a fake spec,
with the commands it would run recorded instead of run. What this checks:
the recipe is valid Python that Spack's directive style accepts; the
+openmpi/+mpich variants, their conflict and dependencies; and the build
it describes (one configure per MPI with that MPI's mpicc, make, make
check-unit only when tests are asked for, make install). It does not check
Spack's concretizer or a real Spack build.
Usage: python3 tests/spack_recipe.py SRCDIR; prints PASS/FAIL lines.
"""
import contextlib
import os
import sys
import tempfile
import types

src = sys.argv[1]
directives = []


def directive(name):
    def record(*args, **kw):
        directives.append((name, args, kw))
    return record


class FakeSpec:
    def __init__(self, on, prefix):
        self.on = set(on)
        self.prefix = prefix

    def satisfies(self, s):
        want = {t for t in s.replace("~", " ~").replace("+", " +").split() if t}
        return all((t[1:] in self.on) == (t[0] == "+") for t in want)

    def __getitem__(self, name):
        d = types.SimpleNamespace(prefix=types.SimpleNamespace(bin="/opt/%s/bin" % name))
        return d


class Package:
    pass


ran = []


def Executable(path):
    return lambda *args: ran.append([os.path.basename(path)] + list(args))


@contextlib.contextmanager
def working_dir(path, create=False):
    ran.append(["cd", path])
    yield


fake = types.ModuleType("spack.package")
for name in ("version", "variant", "conflicts", "depends_on", "maintainers", "license"):
    setattr(fake, name, directive(name))
fake.Package = Package
fake.Executable = Executable
fake.working_dir = working_dir
fake.join_path = os.path.join
fake.__all__ = [n for n in dir(fake) if not n.startswith("_")]
sys.modules["spack"] = types.ModuleType("spack")
sys.modules["spack.package"] = fake

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        print("PASS spack recipe: " + what)
    else:
        failed += 1
        print("FAIL spack recipe: " + what)


ns = {"__name__": "mpicheck_recipe"}
path = os.path.join(src, "packaging", "spack", "package.py")
exec(compile(open(path).read(), path, "exec"), ns)
cls = ns.get("Mpicheck")
check(cls is not None and issubclass(cls, Package), "package.py defines class Mpicheck(Package)")

variants = {a[0]: kw.get("default") for n, a, kw in directives if n == "variant"}
check(variants.get("openmpi") is True and variants.get("mpich") is False,
      "variants +openmpi (default on) and +mpich (default off): %s" % variants)
deps = {(a[0], kw.get("when")) for n, a, kw in directives if n == "depends_on"}
need = {("openmpi", "+openmpi"), ("mpich", "+mpich"), ("libunwind", None), ("elfutils", None),
        ("jansson", None), ("xxhash", None), ("uthash", None), ("pmix", "+pmix")}
check(need <= deps, "depends on each MPI only with its variant, and on libunwind, elfutils (libdw), "
      "jansson, xxhash, uthash, pmix: missing %s" % sorted(map(str, need - deps)))
check(any(n == "conflicts" and a[0] == "~openmpi~mpich" for n, a, kw in directives),
      "conflicts(~openmpi~mpich): at least one MPI")
check(any(n == "version" for n, a, kw in directives), "declares a version")


def build(on, run_tests, with_configure):
    del ran[:]
    pkg = cls()
    pkg.spec = FakeSpec(on, "/opt/mpicheck")
    pkg.prefix = "/opt/mpicheck"
    pkg.run_tests = run_tests
    with tempfile.TemporaryDirectory() as d:
        if with_configure:
            open(os.path.join(d, "configure"), "w").close()
        pkg.stage = types.SimpleNamespace(source_path=d)
        ns["make"] = Executable("make")
        pkg.install(pkg.spec, pkg.prefix)
    return [[os.path.basename(c[0])] + c[1:] for c in ran]


got = build({"openmpi", "mpich", "pmix"}, False, False)
want = [["autoreconf", "-fi"],
        ["cd", "spack-build/openmpi"],
        ["configure", "--prefix=/opt/mpicheck", "--with-mpicc=/opt/openmpi/bin/mpicc", "--with-pmix"],
        ["make"], ["make", "install"],
        ["cd", "spack-build/mpich"],
        ["configure", "--prefix=/opt/mpicheck", "--with-mpicc=/opt/mpich/bin/mpicc", "--with-pmix"],
        ["make"], ["make", "install"]]
check(got == want, "+openmpi+mpich from a checkout: autoreconf, then per MPI a build directory, "
      "configure --with-mpicc=<that MPI>/bin/mpicc, make, make install: %s" % got)
got = build({"mpich"}, True, True)
want = [["cd", "spack-build/mpich"],
        ["configure", "--prefix=/opt/mpicheck", "--with-mpicc=/opt/mpich/bin/mpicc", "--without-pmix"],
        ["make"], ["make", "check-unit"], ["make", "install"]]
check(got == want, "~openmpi+mpich~pmix from a release tarball with tests: no autoreconf, one configure "
      "--without-pmix, make check-unit: %s" % got)

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
