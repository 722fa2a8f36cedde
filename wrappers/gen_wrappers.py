#!/usr/bin/env python3
"""Generate mpicheck's PMPI wrappers from wrappers/mpi.protos.

Inputs: the prototype list, the MPI library's preprocessed mpi.h (so each
wrapper uses the exact parameter types that library declares, const and all),
and the list of MPI_ symbols its shared library exports (so removed functions
that are still exported for old binaries get wrappers too).

Outputs (into --out-dir, the build tree; never committed):
  mc_fn_ids.h     enum mc_fn, one id per list entry (stable across flavors)
  mc_fn_table.c   the descriptor table (names, flags, roles); no MPI types
  mc_wrappers.c   one wrapper per function this library has
  mc_wrapped.txt  the names wrapped, one per line (for the coverage test)
  mc_eng_protos.h the engine's entry points (!engine), with mpi.h's types
  mc_pmpi_count.h mc_pmpi_<Name>: each !large function with MPI_Count
                  counts, calling PMPI_<Name>_c when a count exceeds INT_MAX
                  (and the library has it), else PMPI_<Name>

Standard library only.
"""
import argparse
import os
import re
import sys

ROLES = [
    "NONE",
    "COMM", "COMM_ANY", "COMM_OUT", "COMM_FREE", "COMM_PARENT",
    "DATATYPE", "DATATYPE_ANY", "DATATYPE_OUT", "DATATYPE_FREE", "DATATYPE_COMMIT",
    "OP", "OP_OUT", "OP_FREE",
    "GROUP", "GROUP_OUT", "GROUP_FREE",
    "ERRHANDLER_OUT", "ERRHANDLER_FREE",
    "WIN", "WIN_OUT", "WIN_FREE",
    "REQ_OUT", "REQ", "REQ_ARRAY", "REQ_VAL",
    "COUNT",
    "DEST", "SOURCE", "ROOT", "RANK", "TARGET",
    "STAG", "RTAG",
    "SBUF", "RBUF", "ROOTBUF", "LEAFBUF", "BCASTBUF",
    "ROOTBUFV", "LEAFBUFV", "SBUFV", "RBUFV",
    "COLLBUF", "COLLBUF_SUM",
    "WINBASE", "COLOR", "DIMS",
]
# Number of references each role takes (None: any number is an error).
ROLE_REFS = {r: 0 for r in ROLES}
ROLE_REFS.update({
    "REQ_ARRAY": 1, "DEST": 1, "SOURCE": 1, "ROOT": 1, "RANK": 1, "TARGET": 1,
    "SBUF": 2, "RBUF": 2, "ROOTBUF": 4, "LEAFBUF": 4, "BCASTBUF": 4,
    "ROOTBUFV": 5, "LEAFBUFV": 5, "SBUFV": 4, "RBUFV": 4,
    "COLLBUF": 2, "COLLBUF_SUM": 1, "WINBASE": 1, "DIMS": 1,
})
BUFFER_ROLES = {"SBUF", "RBUF", "ROOTBUF", "LEAFBUF", "BCASTBUF", "ROOTBUFV", "LEAFBUFV", "SBUFV", "RBUFV"}
FLAGS = ["manual", "preinit", "postfinal", "legacy", "persistent", "block", "engine", "large", "held", "synced"]

# Scalar C types and the mc_value member that stores them.
SCALAR_CTYPES = {
    "int": ("MC_CT_INT", "i"), "MPI_Fint": ("MC_CT_INT", "i"),
    "MPI_Count": ("MC_CT_COUNT", "c"), "MPI_Aint": ("MC_CT_AINT", "a"),
    "MPI_Offset": ("MC_CT_OFFSET", "o"), "double": ("MC_CT_DOUBLE", "d"),
    "MPI_Comm": ("MC_CT_COMM", "comm"), "MPI_Datatype": ("MC_CT_DATATYPE", "type"),
    "MPI_Op": ("MC_CT_OP", "op"), "MPI_Group": ("MC_CT_GROUP", "group"),
    "MPI_Request": ("MC_CT_REQUEST", "req"), "MPI_Win": ("MC_CT_WIN", "win"),
    "MPI_Info": ("MC_CT_INFO", "info"), "MPI_Errhandler": ("MC_CT_ERRHANDLER", "eh"),
    "MPI_File": ("MC_CT_FILE", "file"), "MPI_Message": ("MC_CT_MESSAGE", "msg"),
}
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
TYPE_WORDS = {"const", "volatile", "int", "char", "void", "double", "float", "long",
              "short", "unsigned", "signed", "struct", "restrict", "__restrict",
              "size_t", "int64_t", "uint64_t", "int32_t", "uint32_t", "bool", "_Bool"}


class ProtoError(Exception):
    pass


def split_params(text):
    """Split a parameter list on top-level commas."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    tail = "".join(cur).strip()
    if tail:
        out.append(tail)
    return out


def declarator_name(decl):
    """Return (name, start, end) of the declared name in a C parameter
    declaration, or None when the declaration is unnamed."""
    candidates = [m for m in IDENT.finditer(decl)
                  if m.group(0) not in TYPE_WORDS and not m.group(0).startswith("MPI")
                  and not m.group(0).startswith("__")]
    # A type name like MPI_T_enum, or a typedef such as MPI_User_function,
    # starts with MPI and is skipped above; the last remaining identifier
    # outside brackets is the name.
    outside = [m for m in candidates if decl[:m.start()].count("[") == decl[:m.start()].count("]")]
    if not outside:
        return None
    m = outside[-1]
    return m.group(0), m.start(), m.end()


def with_name(decl, name):
    """Rewrite a parameter declaration so that it declares `name`."""
    found = declarator_name(decl)
    if found:
        _, s, e = found
        return decl[:s] + name + decl[e:]
    # Unnamed: the name goes before the first '[' or after '(*', else at the end.
    if "(*" in decl:
        i = decl.index("(*") + 2
        return decl[:i] + name + decl[i:]
    if "[" in decl:
        i = decl.index("[")
        return decl[:i].rstrip() + " " + name + decl[i:]
    return decl.rstrip() + (" " if not decl.endswith("*") else "") + name


def type_only(decl):
    found = declarator_name(decl)
    if found:
        _, s, e = found
        decl = decl[:s] + decl[e:]
    return " ".join(decl.split())


def value_store(decl):
    """(ctype enum, mc_value member or None) for a parameter declaration."""
    t = type_only(decl)
    if "*" in t or "[" in t:
        return "MC_CT_PTR", "p"
    words = [w for w in IDENT.findall(t) if w not in ("const", "volatile")]
    base = " ".join(words)
    return SCALAR_CTYPES.get(base, ("MC_CT_OTHER", None))


class Param:
    def __init__(self, decl, name, role, refs):
        self.decl, self.name, self.role, self.refs = decl, name, role, refs


class Proto:
    def __init__(self, ret, name, params, flags, lineno):
        self.ret, self.name, self.params, self.flags, self.lineno = ret, name, params, flags, lineno


LINE = re.compile(r"^\s*(?P<ret>[A-Za-z_][\w\s\*]*?)\s*\b(?P<name>MPI_\w+)\s*\((?P<params>.*)\)\s*(?P<flags>(!\w+\s*)*)$")


def parse_protos(path):
    protos, seen = [], set()
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            m = LINE.match(line)
            if not m:
                raise ProtoError(f"{path}:{lineno}: cannot parse: {line}")
            name = m.group("name")
            if name in seen:
                raise ProtoError(f"{path}:{lineno}: {name} listed twice")
            seen.add(name)
            flags = re.findall(r"!(\w+)", m.group("flags") or "")
            for fl in flags:
                if fl not in FLAGS:
                    raise ProtoError(f"{path}:{lineno}: unknown flag !{fl}")
            params = []
            ptext = m.group("params").strip()
            if ptext not in ("", "void"):
                for p in split_params(ptext):
                    if p.strip() == "...":
                        continue  # varargs (MPI_Pcontrol): hand-written wrapper
                    role, refs = "NONE", []
                    if "@" in p:
                        p, annot = p.split("@", 1)
                        am = re.match(r"^\s*(\w+)\s*(?:\((.*)\))?\s*$", annot)
                        if not am:
                            raise ProtoError(f"{path}:{lineno}: bad role '{annot}' in {name}")
                        role = am.group(1)
                        refs = [r.strip() for r in am.group(2).split(",")] if am.group(2) else []
                    p = p.strip()
                    found = declarator_name(p)
                    if not found:
                        raise ProtoError(f"{path}:{lineno}: parameter '{p}' of {name} has no name")
                    params.append(Param(p, found[0], role, refs))
            names = [p.name for p in params]
            for p in params:
                if p.role not in ROLE_REFS:
                    raise ProtoError(f"{path}:{lineno}: unknown role @{p.role} in {name}")
                if len(p.refs) != ROLE_REFS[p.role]:
                    raise ProtoError(f"{path}:{lineno}: @{p.role} of {name} takes {ROLE_REFS[p.role]} refs, has {len(p.refs)}")
                for r in p.refs:
                    if r not in names:
                        raise ProtoError(f"{path}:{lineno}: @{p.role}({r}) of {name}: no parameter '{r}'")
            proto = Proto(" ".join(m.group("ret").split()), name, params, flags, lineno)
            protos.append(proto)
            if "large" in flags:
                big = large_variant(proto)
                if big.name in seen:
                    raise ProtoError(f"{path}:{lineno}: {big.name} listed twice (!large makes it)")
                seen.add(big.name)
                protos.append(big)
    return protos


LARGE_ARRAY = re.compile(r"^(const )?int (\w+)\[\]$")


def large_variant(p):
    """The MPI-4.0 large-count form of p (!large): MPI_X_c, right after it,
    with the same names, roles and flags; counts become MPI_Count, arrays of
    counts MPI_Count[] and arrays of displacements MPI_Aint[] (the rule of
    the communication functions, MPI-4.0 sec. 2.5.8 and 19.2; functions
    whose large form changes more, the datatype constructors among them, are
    listed by hand). The wrapper takes its types from mpi.h as always; these
    matter only for the table of a library without the _c function."""
    params = []
    for q in p.params:
        d = " ".join(q.decl.split())
        if q.role == "COUNT" and type_only(d) == "int":
            d = d.replace("int ", "MPI_Count ", 1)
        else:
            am = LARGE_ARRAY.match(d)
            if am and "displ" in am.group(2):
                d = d.replace("int ", "MPI_Aint ", 1)
            elif am and "count" in am.group(2):
                d = d.replace("int ", "MPI_Count ", 1)
        params.append(Param(d, q.name, q.role, list(q.refs)))
    flags = [f for f in p.flags if f != "large"]
    return Proto(p.ret, p.name + "_c", params, flags, p.lineno)


DECL = re.compile(r"(?P<ret>[A-Za-z_][\w\s\*]*?)\s*\bPMPI_(?P<name>\w+)\s*\((?P<params>[^;{}]*?)\)\s*(?:__attribute__\s*\(\(.*?\)\)\s*)*;", re.S)


def parse_header(path):
    """Map MPI_Name -> (return type, [param decls]) from preprocessed mpi.h."""
    with open(path, errors="replace") as f:
        text = f.read()
    text = re.sub(r"^#.*$", "", text, flags=re.M)
    text = re.sub(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)", "", text)
    decls = {}
    for m in DECL.finditer(text):
        ret = " ".join(m.group("ret").split())
        # drop storage words and anything before the last ';' or '}' fragment
        ret = re.sub(r"^(extern|static|inline)\s+", "", ret.split(";")[-1].split("}")[-1].strip())
        ptext = " ".join(m.group("params").split())
        params = [] if ptext in ("", "void") else [q for q in split_params(ptext) if q != "..."]
        decls["MPI_" + m.group("name")] = (ret, params)
    return decls


def read_exports(path):
    if not path or not os.path.exists(path):
        return set()
    with open(path) as f:
        return {line.strip() for line in f if line.strip()}


def c_args_list(proto):
    return ", ".join(p.name for p in proto.params)


def gen_ids(protos):
    out = ["/* DO NOT EDIT: generated by wrappers/gen_wrappers.py from wrappers/mpi.protos */",
           "#ifndef MPICHECK_FN_IDS_H", "#define MPICHECK_FN_IDS_H", "enum mc_fn {"]
    out += [f"    MC_FN_{p.name}," for p in protos]
    out += ["    MC_FN_COUNT_", "};", "#endif", ""]
    return "\n".join(out)


def gen_table(protos, header_decls):
    out = ["/* DO NOT EDIT: generated by wrappers/gen_wrappers.py from wrappers/mpi.protos */",
           '#include "fn_table.h"', "",
           "const char *const mc_role_names[MC_ROLE_COUNT_] = {"]
    out += [f'    "{r}",' for r in ROLES]
    out += ["};", ""]
    for p in protos:
        if not p.params:
            continue
        hdr = header_decls.get(p.name)
        out.append(f"static const mc_param_desc params_{p.name}[] = {{")
        names = [q.name for q in p.params]
        # For each parameter, the buffers that reference it (bit per index):
        # a count or datatype is checked only when one of them is significant.
        bufrefs = [0] * len(p.params)
        for b, q in enumerate(p.params):
            if q.role in BUFFER_ROLES:
                for r in q.refs:
                    bufrefs[names.index(r)] |= 1 << b
        for i, q in enumerate(p.params):
            decl = hdr[1][i] if hdr and len(hdr[1]) == len(p.params) else q.decl
            ctype, _ = value_store(decl)
            refs = [names.index(r) for r in q.refs] + [-1] * (5 - len(q.refs))
            out.append(f'    {{"{q.name}", MC_ROLE_{q.role}, {ctype}, {{{", ".join(map(str, refs))}}}, {bufrefs[i]:#x}}},')
        out.append("};")
    out += ["", "const mc_fn_desc mc_fn_table[MC_FN_COUNT_] = {"]
    for p in protos:
        # !large only tells the generator to add the _c form: not a run-time flag.
        flags = " | ".join(f"MC_FLAG_{f.upper()}" for f in p.flags if f != "large") or "0"
        has_roles = int(any(q.role != "NONE" for q in p.params))
        mask = 0
        for q in p.params:
            if q.role != "NONE":
                mask |= 1 << ROLES.index(q.role)
        params = f"params_{p.name}" if p.params else "0"
        roles = [q.role for q in p.params]
        req_out = roles.index("REQ_OUT") if "REQ_OUT" in roles else -1
        req_in = roles.index("REQ") if "REQ" in roles else roles.index("REQ_ARRAY") if "REQ_ARRAY" in roles else -1
        out.append(f'    [MC_FN_{p.name}] = {{"{p.name}", {flags}, {len(p.params)}, {has_roles}, {params}, '
                   f'{mask:#x}ULL, {req_out}, {req_in}}},')
    out += ["};", ""]
    return "\n".join(out)


def held_start(p, decls):
    """!held: the real call made later from the call's saved values (the
    checker holds a nonblocking collective until its handshake ended,
    src/coll/held.c): mc_start_<Name>(values, request). None when a value
    cannot be given back (a parameter the values do not keep)."""
    args = []
    for i, (d, q) in enumerate(zip(decls, p.params)):
        if q.role == "REQ_OUT":
            args.append("request_")
            continue
        _, member = value_store(d)
        if not member:
            return None
        if member == "p":
            t = type_only(d).replace("[]", "*")
            if "[" in t or "(" in t:
                return None
            args.append(f"({t})(uintptr_t)v_[{i}].p")
        else:
            args.append(f"v_[{i}].{member}")
    return "\n".join([f"static int mc_start_{p.name}(const mc_value *v_, MPI_Request *request_)",
                      "{", f"    return P{p.name}({', '.join(args)});", "}", ""])


def gen_wrapper(p, decls, own_decl):
    """One wrapper. decls: the parameter declarations to use (header's)."""
    params = [with_name(d, q.name) for d, q in zip(decls, p.params)]
    plist = ", ".join(params) if params else "void"
    args = c_args_list(p)
    ret = p.ret
    lines = []
    start = held_start(p, decls) if "held" in p.flags else None
    if start:
        lines.append(start)
    if own_decl:
        # Open MPI turns removed functions into macros that fail to compile.
        # mpi.h declares neither, so both get the old prototype here (the
        # build warns on a function defined without one).
        lines += [f"#undef {p.name}", f"#undef P{p.name}", f"extern {ret} P{p.name}({plist});",
                  f"{ret} {p.name}({plist});"]
    lines.append(f"MC_EXPORT {ret} {p.name}({plist})")
    lines.append("{")
    lines.append(f"    if (MC_BYPASS()) return P{p.name}({args});")
    n = len(p.params)
    if n:
        lines.append(f"    mc_value v_[{n}];")
        for i, (d, q) in enumerate(zip(decls, p.params)):
            _, member = value_store(d)
            if member == "p":
                lines.append(f"    v_[{i}].p = (const void *)(uintptr_t){q.name};" if "(*" in d else
                             f"    v_[{i}].p = (const void *){q.name};")
            elif member:
                lines.append(f"    v_[{i}].{member} = {q.name};")
            else:
                lines.append(f"    v_[{i}].i = 0;")
    vals = "v_" if n else "0"
    lines.append("    mc_call c_;")
    lines.append(f"    mc_call_enter(&c_, MC_FN_{p.name}, {vals}, __builtin_return_address(0));")
    if "engine" in p.flags:
        # The handshake engine (src/p2p/) makes the real call(s) itself.
        lines.append(f"    {ret} rc_ = c_.engine ? mc_eng_{p.name}(&c_{', ' + args if args else ''}) : P{p.name}({args});")
    elif start:
        # Held until its handshake ended (src/coll/held.c), when coll says so.
        req = next(q.name for q in p.params if q.role == "REQ_OUT")
        lines.append(f"    {ret} rc_ = c_.hold ? mc_hold_start(&c_, mc_start_{p.name}, {req}) : P{p.name}({args});")
    elif "synced" in p.flags:
        # Its handshake already synchronized every member (src/coll/hs_p2p.c).
        lines.append(f"    {ret} rc_ = c_.synced ? MPI_SUCCESS : P{p.name}({args});")
    else:
        lines.append(f"    {ret} rc_ = P{p.name}({args});")
    ok = "rc_ == MPI_SUCCESS" if ret == "int" else "1"
    lines.append(f"    mc_call_leave(&c_, {ok});")
    lines.append("    return rc_;")
    lines.append("}")
    return "\n".join(lines)


def gen_count_dispatch(p, pdecls, big_ok):
    """mc_pmpi_<Name>: p (a !large function whose counts are scalars) taking
    its counts as MPI_Count. big_ok: the library has MPI_<Name>_c."""
    counts = [q.name for q, d in zip(p.params, pdecls) if q.role == "COUNT"]
    if not counts or any(type_only(d) != "int" for q, d in zip(p.params, pdecls) if q.role == "COUNT"):
        return None
    # Only where the large form changes nothing but those counts (not the
    # v and w collectives, whose arrays change type too): decided from the
    # list, so that every library gets the same set of functions.
    big = large_variant(p)
    if any(" ".join(a.decl.split()) != " ".join(b.decl.split())
           for a, b in zip(p.params, big.params) if a.role != "COUNT"):
        return None
    params = []
    for d, q in zip(pdecls, p.params):
        params.append(f"MPI_Count {q.name}" if q.role == "COUNT" else with_name(d, q.name))
    big_args = ", ".join(q.name for q in p.params)
    small_args = ", ".join(f"(int){q.name}" if q.role == "COUNT" else q.name for q in p.params)
    lines = [f"static inline {p.ret} mc_pmpi_{p.name[4:]}({', '.join(params)})", "{"]
    if big_ok:
        test = " || ".join(f"{c} > INT_MAX" for c in counts)
        lines.append(f"    if ({test})")
        lines.append(f"        return P{p.name}_c({big_args});")
    lines.append(f"    return P{p.name}({small_args});")
    lines.append("}")
    return "\n".join(lines)


def load_inputs(doc, prog):
    """The command line both generators take, and what it names: (args,
    protos, mpi.h declarations, exports), or None (the error printed)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--protos", required=True)
    ap.add_argument("--header", required=True, help="preprocessed mpi.h")
    ap.add_argument("--exports", help="MPI_ symbols the MPI library exports, one per line")
    ap.add_argument("--out-dir", required=True)
    a = ap.parse_args()
    try:
        protos = parse_protos(a.protos)
    except ProtoError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return None
    return a, protos, parse_header(a.header), read_exports(a.exports)


def write_if_changed(out_dir, name, text):
    """Rewrite only on change, so make does not rebuild needlessly."""
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, name)
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def main():
    inputs = load_inputs(__doc__, "gen_wrappers")
    if inputs is None:
        return 1
    a, protos, decls, exports = inputs
    listed = {p.name for p in protos}
    unlisted = sorted(n for n in decls if n not in listed and not n.startswith("MPIX_"))
    for n in unlisted:
        print(f"gen_wrappers: warning: {n} is declared by mpi.h but missing from {a.protos}", file=sys.stderr)

    body = ["/* DO NOT EDIT: generated by wrappers/gen_wrappers.py from wrappers/mpi.protos */",
            "/* Wrappers of deprecated functions must call them. */",
            '#pragma GCC diagnostic ignored "-Wdeprecated-declarations"',
            "#include <stdint.h>", "#include <mpi.h>", '#include "dispatch.h"', '#include "mc_eng_protos.h"', ""]
    wrapped, errors, eng_protos, dispatch = [], 0, [], []
    for p in protos:
        hdr = decls.get(p.name)
        own_decl = False
        if hdr is None:
            if "legacy" in p.flags and p.name in exports:
                pdecls, own_decl = [q.decl for q in p.params], True
            else:
                continue
        elif exports and p.name not in exports:
            # Declared but not exported (MPICH 4.0's MPI_Status_f082f...): a
            # wrapper would leave an undefined PMPI_ reference behind.
            continue
        else:
            pdecls = hdr[1]
            if len(pdecls) != len(p.params):
                print(f"gen_wrappers: {a.protos}:{p.lineno}: {p.name} has {len(p.params)} parameters, "
                      f"mpi.h declares {len(pdecls)}", file=sys.stderr)
                errors += 1
                continue
            # Open MPI's MPI_Fint is a macro for int: the same type.
            if hdr[0].replace("MPI_Fint", "int") != p.ret.replace("MPI_Fint", "int"):
                print(f"gen_wrappers: {a.protos}:{p.lineno}: {p.name} returns '{p.ret}', mpi.h says '{hdr[0]}'",
                      file=sys.stderr)
                errors += 1
                continue
        wrapped.append(p.name)
        if "large" in p.flags and not own_decl:
            big = p.name + "_c"
            d = gen_count_dispatch(p, pdecls, big in decls and (not exports or big in exports))
            if d:
                dispatch.append(d)
        if "engine" in p.flags:
            params = [with_name(d, q.name) for d, q in zip(pdecls, p.params)]
            eng_protos.append(f"int mc_eng_{p.name}(mc_call *c{''.join(', ' + x for x in params)});")
        if "manual" in p.flags:
            continue
        body.append(gen_wrapper(p, pdecls, own_decl))
        body.append("")
    if errors:
        return 1

    def write(name, text):
        write_if_changed(a.out_dir, name, text)

    eng_h = ["/* DO NOT EDIT: generated by wrappers/gen_wrappers.py from wrappers/mpi.protos */",
             "/* The handshake engine's entry points (src/p2p/), with mpi.h's exact types. */",
             "#ifndef MC_ENG_PROTOS_H", "#define MC_ENG_PROTOS_H", "#include <mpi.h>", '#include "call.h"']
    eng_h += eng_protos + ["#endif", ""]
    write("mc_eng_protos.h", "\n".join(eng_h))
    disp_h = ["/* DO NOT EDIT: generated by wrappers/gen_wrappers.py from wrappers/mpi.protos */",
              "/* The !large functions with MPI_Count counts: the _c form when a count",
              " * exceeds INT_MAX and this library has it (for the checker's own PMPI calls",
              " * on the application's behalf). */",
              "#ifndef MC_PMPI_COUNT_H", "#define MC_PMPI_COUNT_H", "#include <limits.h>", "#include <mpi.h>",
              "#pragma GCC diagnostic push", '#pragma GCC diagnostic ignored "-Wdeprecated-declarations"', ""]
    disp_h += [x + "\n" for x in dispatch] + ["#pragma GCC diagnostic pop", "#endif", ""]
    write("mc_pmpi_count.h", "\n".join(disp_h))
    write("mc_fn_ids.h", gen_ids(protos))
    write("mc_fn_table.c", gen_table(protos, decls))
    write("mc_wrappers.c", "\n".join(body))
    write("mc_wrapped.txt", "\n".join(wrapped) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
