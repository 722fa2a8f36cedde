#!/usr/bin/env python3
"""layers.py - the library's folders depend only downward (issue 12).

The layers, lowest first (docs/design.md, "Layers"):

    util -> report -> tracking, match -> runtime -> checks, p2p, coll, inter -> core -> fortran

A folder may use its own files and those of any LOWER layer, never a folder
of its own layer or of a higher one (p2p and coll are peers: neither names
the other; what the runtime needs of them they register, runtime/hooks.h).
The launcher is a separate program over util and report.

Two views are checked, because either alone can be fooled:
  - includes: every #include "x.h" in src/, by the folder that holds x.h;
  - symbols: with --objects BUILD_SRC, every undefined mc_* symbol of each
    compiled object of the library, by the folder whose object defines it
    (a prototype typed by hand in a .c file escapes the include view).
Any edge that goes up or sideways fails, and so does a cycle of folders, and
a prototype of an mc_ function typed in a .c file (it belongs in a header).
--self-test plants each in copies and checks that all are caught.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

LAYER = {
    'util': 0, 'report': 1, 'tracking': 2, 'match': 2, 'runtime': 3,
    'checks': 4, 'p2p': 4, 'coll': 4, 'inter': 4, 'core': 5, 'launcher': 5,
    'fortran': 6,
}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of_headers(src):
    where = {}
    for d in sorted(os.listdir(src)):
        if not os.path.isdir(os.path.join(src, d)):
            continue
        for f in os.listdir(os.path.join(src, d)):
            if f.endswith('.h'):
                if f in where:
                    sys.exit('layers: header %s is in both %s and %s: include by bare name is ambiguous'
                             % (f, where[f], d))
                where[f] = d
    return where


def include_edges(src):
    """(from_folder, to_folder, 'file -> header') for every cross-folder include."""
    where = folder_of_headers(src)
    edges = []
    for d in sorted(os.listdir(src)):
        path = os.path.join(src, d)
        if not os.path.isdir(path):
            continue
        for f in sorted(os.listdir(path)):
            if not f.endswith(('.c', '.h')):
                continue
            with open(os.path.join(path, f), encoding='utf-8', errors='replace') as fh:
                text = fh.read()
            for m in INCLUDE_RE.finditer(text):
                h = os.path.basename(m.group(1))
                if h in where and where[h] != d:
                    edges.append((d, where[h], '%s/%s includes %s' % (d, f, h)))
    return edges


def object_symbols(objdir, srcdir=None):
    """{folder: [(object, defined set, undefined set)]} from nm over BUILD/src/<folder>/.libs/*.o.
    With srcdir, objects left in a reused build tree by a source file since moved or
    removed (no SRC/<folder>/<name>.c) are not the library's and are passed over."""
    out = {}
    for d in sorted(os.listdir(objdir)):
        libs = os.path.join(objdir, d, '.libs')
        if d not in LAYER or not os.path.isdir(libs):
            continue
        for f in sorted(os.listdir(libs)):
            if not (f.startswith('libmpicheck_la-') and f.endswith('.o')):
                continue
            src = f[len('libmpicheck_la-'):-2] + '.c'
            if srcdir and not os.path.exists(os.path.join(srcdir, d, src)):
                continue
            nm = subprocess.run(['nm', os.path.join(libs, f)], capture_output=True, text=True, check=True)
            defined, undefined = set(), set()
            for line in nm.stdout.splitlines():
                parts = line.split()
                if len(parts) == 2 and parts[0] == 'U':
                    undefined.add(parts[1])
                elif len(parts) == 3 and parts[1] in 'TDBRCVWtdbr' and parts[1].isupper():
                    defined.add(parts[2])
            out.setdefault(d, []).append((f, defined, undefined))
    return out


def symbol_edges(objs):
    owner = {}
    for d, lst in objs.items():
        for f, defined, _ in lst:
            for s in defined:
                owner[s] = d
    edges = []
    for d, lst in objs.items():
        for f, _, undefined in lst:
            for s in sorted(undefined):
                if s.startswith('mc_') and s in owner and owner[s] != d:
                    edges.append((d, owner[s], '%s/%s uses %s' % (d, f, s)))
    return edges


def violations(edges):
    bad = []
    graph = {}
    for a, b, why in edges:
        graph.setdefault(a, set()).add(b)
        if a not in LAYER or b not in LAYER:
            bad.append('folder not in the layer table (tests/layers.py): %s' % why)
        elif LAYER[b] >= LAYER[a]:
            kind = 'sideways (same layer)' if LAYER[b] == LAYER[a] else 'upward'
            bad.append('%s: %s (%s is layer %d, %s is layer %d)' % (kind, why, a, LAYER[a], b, LAYER[b]))
    # A cycle needs an edge that is not downward, so it is reported above;
    # naming it helps whoever breaks it.
    state = {}

    def visit(n, stack):
        state[n] = 1
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                bad.append('cycle of folders: %s' % ' -> '.join(stack[stack.index(m):] + [m]))
            elif m not in state:
                visit(m, stack + [m])
        state[n] = 2
    for n in sorted(graph):
        if n not in state:
            visit(n, [n])
    return bad


PROTO_IN_C = re.compile(r'^(?!static|extern|return|typedef)[A-Za-z_][\w \*]*?\b(mc_\w+)\s*\([^;{}]*\)\s*;', re.M)


def prototypes_in_c(src):
    """Functions declared by hand in a .c file: each belongs in its folder's
    header, where every caller and the definition see the same one."""
    found = []
    for d in sorted(os.listdir(src)):
        path = os.path.join(src, d)
        if not os.path.isdir(path):
            continue
        for f in sorted(os.listdir(path)):
            if f.endswith('.c'):
                with open(os.path.join(path, f), encoding='utf-8', errors='replace') as fh:
                    for m in PROTO_IN_C.finditer(fh.read()):
                        found.append('prototype typed in a .c file: %s/%s declares %s (put it in a header)'
                                     % (d, f, m.group(1)))
    return found


RAW_ALLOC = re.compile(r'(?<![\w])(malloc|calloc|realloc|strdup|strndup)\s*\(')


def raw_allocations(src):
    """Allocations above util/ that bypass report/skipped.c's counted ones: a
    failure there would drop a check without the job report saying so."""
    found = []
    for d in sorted(os.listdir(src)):
        path = os.path.join(src, d)
        if not os.path.isdir(path) or d in ('util', 'launcher') or d not in LAYER:
            continue
        for f in sorted(os.listdir(path)):
            if not f.endswith('.c') or (d, f) == ('report', 'skipped.c'):
                continue
            with open(os.path.join(path, f), encoding='utf-8', errors='replace') as fh:
                for n, line in enumerate(fh, 1):
                    code = line.split('//')[0]
                    if code.lstrip().startswith(('*', '/*')):
                        continue
                    m = RAW_ALLOC.search(code)
                    if m:
                        found.append('uncounted allocation: %s/%s:%d calls %s (use mc_%s, report/skipped.h)'
                                     % (d, f, n, m.group(1), m.group(1)))
    return found


def report_reads_state(src):
    """report/ is handed what it needs of the run (mc_report_configure) and
    reads no process state: util/state.h is not for it."""
    found = []
    path = os.path.join(src, 'report')
    for f in sorted(os.listdir(path)) if os.path.isdir(path) else []:
        if f.endswith(('.c', '.h')):
            with open(os.path.join(path, f), encoding='utf-8', errors='replace') as fh:
                if any(os.path.basename(m.group(1)) == 'state.h' for m in INCLUDE_RE.finditer(fh.read())):
                    found.append('report reads process state: report/%s includes state.h' % f)
    return found


def check(src, objdir):
    edges = include_edges(src)
    if objdir:
        objs = object_symbols(objdir, src)
        if not objs:
            return ['no compiled objects of the library under %s (build first)' % objdir]
        edges += symbol_edges(objs)
    return violations(edges) + prototypes_in_c(src) + raw_allocations(src) + report_reads_state(src)


def self_test(src, objdir):
    failures = []
    tmp = tempfile.mkdtemp(prefix='mclayers.')
    try:
        copy = os.path.join(tmp, 'src')
        shutil.copytree(src, copy)
        target = os.path.join(copy, 'report', 'render.c')
        with open(target, 'a') as fh:
            fh.write('\n#include "coll.h"\n')
        found = [v for v in check(copy, None) if 'report/render.c includes coll.h' in v]
        if not found:
            failures.append('a planted upward include (report/render.c -> coll.h) was not caught')
        with open(os.path.join(copy, 'p2p', 'send.c'), 'a') as fh:
            fh.write('\nint mc_planted(mc_call *c,\n               int n);\n')
        if not any('p2p/send.c declares mc_planted' in v for v in check(copy, None)):
            failures.append('a planted prototype in a .c file (p2p/send.c) was not caught')
        with open(os.path.join(copy, 'coll', 'record.c'), 'a') as fh:
            fh.write('\nstatic void *planted(void) { return malloc(8); }\n')
        if not any('coll/record.c' in v and 'calls malloc' in v for v in check(copy, None)):
            failures.append('a planted uncounted malloc (coll/record.c) was not caught')
        with open(os.path.join(copy, 'report', 'text.c'), 'a') as fh:
            fh.write('\n#include "state.h"\n')
        if not any('report/text.c includes state.h' in v for v in check(copy, None)):
            failures.append('a planted state.h include in report/ was not caught')
    finally:
        shutil.rmtree(tmp)
    # The symbol view, on a planted edge: report's object uses a runtime symbol.
    fake = {'report': [('libmpicheck_la-render.o', {'mc_render_value'}, {'mc_eng_wait'})],
            'runtime': [('libmpicheck_la-engine.o', {'mc_eng_wait'}, set())]}
    if not any('upward: report/libmpicheck_la-render.o uses mc_eng_wait' in v for v in violations(symbol_edges(fake))):
        failures.append('a planted upward symbol (report -> runtime) was not caught')
    fake = {'p2p': [('a.o', {'mc_a'}, {'mc_b'})], 'coll': [('b.o', {'mc_b'}, {'mc_a'})]}
    v = violations(symbol_edges(fake))
    if not any(x.startswith('cycle of folders') for x in v) or not any(x.startswith('sideways') for x in v):
        failures.append('a planted cycle between peers (p2p <-> coll) was not caught')
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--src', required=True, help='the src/ folder')
    ap.add_argument('--objects', help="the build's src/ folder (compiled objects)")
    ap.add_argument('--self-test', action='store_true')
    a = ap.parse_args()
    passed = failed = 0
    found = check(a.src, a.objects)
    for v in found:
        print('FAIL layers: %s' % v)
    if found:
        failed += 1
    else:
        passed += 1
        print('PASS layers: every include%s of src/ goes to a lower layer; no prototype typed in a .c file'
              % (' and every library symbol' if a.objects else ''))
    if a.self_test:
        fails = self_test(a.src, a.objects)
        for f in fails:
            print('FAIL layers self-test: %s' % f)
        if fails:
            failed += 1
        else:
            passed += 1
            print('PASS layers self-test: planted upward include, upward symbol, peer cycle, prototype in a .c file, uncounted allocation and report reading state are caught')
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
