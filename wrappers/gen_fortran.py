#!/usr/bin/env python3
"""Generate mpicheck's Fortran entry points from wrappers/mpi.protos.

A Fortran program calls MPI through the library's Fortran binding, and each
library's binding reaches its C side its own way (Open MPI 4.1: mpif.h, the
`mpi` module and the `mpi_f08` module all end in ompi_<name>_f, which calls
PMPI_<Name>; MPICH 4.0: mpif.h calls MPI_<Name>, but mpi_f08 calls
PMPI_<Name> for every routine without a choice buffer). Where the binding
calls PMPI_, no C wrapper sees the call; so the library gets entry points of
its own, under the binding's symbol names, preloaded before the library's:

  converting  the arguments turned into C ones (handles by MPI_<X>_f2c,
              statuses, strings, Fortran's MPI_IN_PLACE / MPI_BOTTOM / ...
              sentinels, 1-based indices), then the C wrapper MPI_<Name>
              (which checks and calls PMPI_<Name>), then the results back.
              Open MPI: mpi_<name>_ and its manglings, and ompi_<name>_f.
              MPICH: mpi_<name>_f08_ (the mpi_f08 routines without buffers).
  forwarding  the library's own entry point, unchanged, inside a frame that
              tells the C wrapper it reaches the Fortran call site and name.
              Open MPI: mpi_<name>_f08_ (it calls ompi_<name>_f). MPICH:
              mpi_<name>_ and its manglings, and mpi_<name>_f08ts_ (they
              call MPI_<Name>).

Either way each call is checked once, by its C wrapper. A function whose
arguments cannot be converted (callbacks, attribute values, arrays of
strings, ...) gets no converting entry point: the library's binding runs,
unseen, as before (wrappers/README.md lists what that leaves out).

Output (into --out-dir): mc_fortran.c, mc_fortran.txt (what was made).
Standard library only.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_wrappers as gw  # noqa: E402

HANDLES = {"MPI_Comm": "Comm", "MPI_Datatype": "Type", "MPI_Op": "Op", "MPI_Group": "Group",
           "MPI_Win": "Win", "MPI_Info": "Info", "MPI_Errhandler": "Errhandler",
           "MPI_Request": "Request", "MPI_Message": "Message", "MPI_File": "File",
           "MPI_Session": "Session"}
NUMBERS = {"MPI_Aint", "MPI_Offset", "MPI_Count"}
# No Fortran binding (the language bridges, the tool interface) or one that
# is not the C call with Fortran types (functions, varargs).
C_ONLY = re.compile(r"_(f2c|c2f|f082c|c2f08|f2f08|f082f)$|^MPI_T_|"
                    r"^MPI_(Wtime|Wtick|Aint_add|Aint_diff)$")
# void * parameters that are no buffer in Fortran: an address returned, an
# attribute value (INTEGER(KIND=MPI_ADDRESS_KIND) in Fortran, a pointer in C).
NOT_BUFFER = re.compile(r"_attr$|^MPI_Attr_|^MPI_(Alloc_mem|Win_allocate|Win_allocate_shared|"
                        r"Win_shared_query|Buffer_detach|Grequest_start)$")
# Arrays of handles other than requests, and their length: a parameter, or
# (after "=") a C expression of the converted arguments.
SPAN = "=mc_f_comm_span(MCF_Comm_f2c(*comm))"
HANDLE_ARRAY_LEN = {("MPI_Type_create_struct", "array_of_types"): "count",
                    ("MPI_Type_get_contents", "array_of_datatypes"): "max_datatypes"}
for f in ("MPI_Alltoallw", "MPI_Ialltoallw", "MPI_Alltoallw_init"):
    HANDLE_ARRAY_LEN.update({(f, "sendtypes"): SPAN, (f, "recvtypes"): SPAN})
# Indices Fortran counts from 1 (C from 0); the value: how many of the
# array are set (None: a scalar).
INDEX_FROM_1 = {("MPI_Waitany", "index"): None, ("MPI_Testany", "index"): None,
                ("MPI_Waitsome", "array_of_indices"): "outcount",
                ("MPI_Testsome", "array_of_indices"): "outcount"}
# MPICH's mpi_f08 routines left to MPICH: MPI_UNWEIGHTED of mpi_f08 is no
# address this file can compare with.
MPICH_F08_SKIP = re.compile(r"^MPI_Dist_graph_")
# Fortran arguments of the functions whose Fortran binding takes other
# arguments than their C one (MPI_Init's argc/argv).
SPECIAL = {
    "MPI_Init": (["MPI_Fint *ierr_"], "{ int argc_ = 0; char **argv_ = NULL; rc_ = MPI_Init(&argc_, &argv_); }"),
    "MPI_Init_thread": (["MPI_Fint *required", "MPI_Fint *provided", "MPI_Fint *ierr_"],
                        "{ int argc_ = 0; char **argv_ = NULL; "
                        "rc_ = MPI_Init_thread(&argc_, &argv_, (int)*required, (int *)provided); }"),
    "MPI_Pcontrol": (["MPI_Fint *level", "MPI_Fint *ierr_"], "rc_ = MPI_Pcontrol((int)*level);"),
}


class Unsupported(Exception):
    pass


def base_type(decl):
    t = gw.type_only(decl)
    words = t.replace("*", " * ").replace("[", " [ ").replace("]", " ] ").split()
    const = "const" in words
    ptr = words.count("*")
    arr = t.count("[")
    dims = re.findall(r"\[\s*(\d*)\s*\]", t)
    base = " ".join(w for w in words if w not in ("const", "*", "[", "]") and not w.isdigit())
    return base, ptr, arr, dims, const


class Conv:
    """One function's converting entry point: its Fortran parameters, the
    code around the C call and the C call's arguments."""

    def __init__(self, p, decls, hdr_names):
        self.p = p
        self.fparams, self.hidden, self.pre, self.args, self.post, self.free = [], [], [], [], [], []
        self.uses_conv = False
        self.transient = False      # a converted array MPI may keep: MC_LANG_TRANSIENT
        self.hdr_names = hdr_names
        for d, q in zip(decls, p.params):
            self.param(d, q)

    def f2c(self, base):
        x = HANDLES[base]
        return f"MCF_{x}_f2c", f"MCF_{x}_c2f"

    def req_count(self):
        for q in self.p.params:
            if q.role == "REQ_ARRAY":
                return q.refs[0]
        raise Unsupported("status array without request array")

    def param(self, d, q):
        n, fn = q.name, self.p.name
        base, ptr, arr, dims, const = base_type(d)
        if base == "int" and not ptr and not arr:
            self.fparams.append(f"MPI_Fint *{n}")
            self.args.append(f"(int)*{n}")
        elif base in NUMBERS and not ptr and not arr:
            self.fparams.append(f"{base} *{n}")
            self.args.append(f"*{n}")
        elif base in HANDLES and not ptr and not arr:
            f2c, _ = self.f2c(base)
            self.fparams.append(f"MPI_Fint *{n}")
            self.args.append(f"{f2c}(*{n})")
        elif base == "void" and ptr == 1 and not arr:
            if NOT_BUFFER.search(fn):
                raise Unsupported("void * that is no buffer")
            self.fparams.append(f"void *{n}")
            self.args.append(f"mc_f_buf({n})")
        elif base == "int" and ptr + arr == 1:
            self.fparams.append(f"MPI_Fint *{n}")
            if dims and dims[0]:
                raise Unsupported("fixed array")
            if dims and len(dims) == 2:
                self.args.append(f"(int (*)[{dims[1]}]){n}")
            elif "weights" in n:
                self.args.append(f"mc_f_weights({n})")
            else:
                self.args.append(f"(int *){n}")
            if (fn, n) in INDEX_FROM_1:
                self.uses_conv = True
                count = INDEX_FROM_1[(fn, n)]
                if count is None:
                    self.post.append(f"if (rc_ == MPI_SUCCESS && mc_f_index_from_1(conv_) && *{n} != MPI_UNDEFINED && *{n} >= 0) *{n} += 1;")
                else:
                    self.post.append(f"if (rc_ == MPI_SUCCESS && mc_f_index_from_1(conv_) && *{count} != MPI_UNDEFINED) "
                                     f"for (int i_ = 0; i_ < *{count}; i_++) {n}[i_] += 1;")
        elif base == "int" and ptr + arr == 2 and len(dims) == 2 and dims[1]:
            self.fparams.append(f"MPI_Fint *{n}")
            self.args.append(f"(int (*)[{dims[1]}]){n}")
        elif base in NUMBERS and ptr + arr == 1:
            self.fparams.append(f"{base} *{n}")
            self.args.append(n)
        elif base in HANDLES and ptr == 1 and not arr:
            f2c, c2f = self.f2c(base)
            self.fparams.append(f"MPI_Fint *{n}")
            self.pre.append(f"{base} c_{n} = {f2c}(*{n});")
            self.args.append(f"&c_{n}")
            self.post.append(f"*{n} = {c2f}(c_{n});")
        elif base in HANDLES and arr == 1 and not ptr:
            f2c, c2f = self.f2c(base)
            if base == "MPI_Request" and q.role == "REQ_ARRAY":
                count = q.refs[0]
            elif (fn, n) in HANDLE_ARRAY_LEN:
                count = HANDLE_ARRAY_LEN[(fn, n)]
            else:
                raise Unsupported("array of handles of unknown length")
            self.fparams.append(f"MPI_Fint *{n}")
            length = count[1:] if count.startswith("=") else f"(int)*{count}"
            self.transient = True
            self.pre += [f"int n_{n} = {length};",
                         f"{base} s_{n}[MC_F_STACK];",
                         f"{base} *c_{n} = n_{n} <= MC_F_STACK ? s_{n} : mc_f_array(n_{n}, sizeof *c_{n}, &err_);",
                         f"for (int i_ = 0; c_{n} && i_ < n_{n}; i_++) c_{n}[i_] = {f2c}({n}[i_]);"]
            self.args.append(f"c_{n}")
            if not const:
                self.post.append(f"for (int i_ = 0; c_{n} && i_ < n_{n}; i_++) {n}[i_] = {c2f}(c_{n}[i_]);")
            self.free.append(f"if (c_{n} != s_{n}) free(c_{n});")
        elif base == "MPI_Status" and ptr == 1 and not arr:
            self.fparams.append(f"MPI_Fint *{n}")
            if const:
                self.pre.append(f"MPI_Status c_{n}; PMPI_Status_f2c({n}, &c_{n});")
                self.args.append(f"&c_{n}")
            else:
                self.uses_conv = True
                self.pre += [f"MPI_Status c_{n}, *p_{n} = MPI_STATUS_IGNORE;",
                             f"if (!mc_f_status_ignored(conv_, {n})) {{ PMPI_Status_f2c({n}, &c_{n}); p_{n} = &c_{n}; }}"]
                self.args.append(f"p_{n}")
                self.post.append(f"if (p_{n} != MPI_STATUS_IGNORE) PMPI_Status_c2f(&c_{n}, {n});")
        elif base == "MPI_Status" and arr == 1 and not ptr:
            count = self.req_count()
            self.uses_conv = True
            self.fparams.append(f"MPI_Fint *{n}")
            self.pre += [f"int n_{n} = (int)*{count};",
                         f"MPI_Status *c_{n} = mc_f_statuses_ignore(), *a_{n} = NULL, s_{n}[MC_F_STACK];",
                         f"if (!mc_f_statuses_ignored(conv_, {n}) && n_{n} > 0) {{",
                         f"    c_{n} = a_{n} = n_{n} <= MC_F_STACK ? s_{n} : mc_f_array(n_{n}, sizeof *c_{n}, &err_);",
                         f"    for (int i_ = 0; a_{n} && i_ < n_{n}; i_++) PMPI_Status_f2c({n} + i_ * MC_F_STATUS_INTS, &a_{n}[i_]);",
                         "}"]
            self.args.append(f"c_{n}")
            self.post.append(f"for (int i_ = 0; a_{n} && i_ < n_{n}; i_++) PMPI_Status_c2f(&a_{n}[i_], {n} + i_ * MC_F_STATUS_INTS);")
            self.free.append(f"if (a_{n} != s_{n}) free(a_{n});")
        elif base == "char" and ptr + arr == 1 and not (dims and dims[0]):
            self.fparams.append(f"char *{n}")
            self.hidden.append(f"int l_{n}")
            self.pre.append(f"char s_{n}[MC_F_STRING_STACK];")
            if const:
                self.pre.append(f"char *c_{n} = mc_f_str_in({n}, l_{n}, s_{n}, sizeof s_{n});")
            else:
                # The C call writes up to its MPI_MAX_* bound (8192 at most),
                # or the length the program gives (not above the variable's).
                self.pre.append(f"char *c_{n} = mc_f_str_buf({n}, l_{n}, s_{n}, sizeof s_{n});")
                self.post.append(f"if (rc_ == MPI_SUCCESS) mc_f_str_out({n}, l_{n}, c_{n});")
            self.pre.append(f"if (!c_{n}) err_ = MPI_ERR_NO_MEM;")
            self.args.append(f"c_{n}")
            self.free.append(f"if (c_{n} != s_{n}) free(c_{n});")
        else:
            raise Unsupported(f"parameter '{d}'")


def body(p, fparams, hidden, code, uses_conv, fn_c, transient=False):
    sig = ", ".join(["int conv_", "const void *ra_"] + fparams + (["MPI_Fint *ierr_"] if "MPI_Fint *ierr_" not in fparams else []) + hidden)
    out = [f"static inline __attribute__((always_inline)) void mcf_{p.name}({sig})", "{"]
    if not uses_conv:
        out.append("    (void)conv_;")
    out += ["    mc_lang_frame fr_;",
            f"    int raised_ = mc_lang_enter(&fr_, MC_FN_{p.name}, {fn_c}, ra_, "
            f"MC_LANG_FORTRAN{' | MC_LANG_TRANSIENT' if transient else ''});",
            "    int err_ = MPI_SUCCESS, rc_ = MPI_SUCCESS;", "    (void)err_;"]
    out += ["    " + line for line in code]
    out += ["    mc_lang_leave(&fr_, raised_);", "    if (ierr_)", "        *ierr_ = (MPI_Fint)rc_;", "}"]
    return out


def converting(p, decls, hdr_names, fn_c):
    """(Fortran parameter list, body lines) of p's converting entry point."""
    if p.name in SPECIAL:
        fparams, call = SPECIAL[p.name]
        return fparams, body(p, fparams, [], [call], False, fn_c)
    c = Conv(p, decls, hdr_names)
    fparams = c.fparams + ["MPI_Fint *ierr_"] + c.hidden
    code = list(c.pre)
    code.append("if (err_ == MPI_SUCCESS) {")
    code.append(f"    rc_ = {p.name}({', '.join(c.args)});")
    code += ["    " + line for line in c.post]
    # Out of memory for a conversion beyond the stack buffers: the call is
    # not made (the library's own binding cannot stand in: the checker's
    # engine may hold the call's requests). docs/fortran.md.
    code.append("} else {")
    code.append("    rc_ = err_;")
    code.append("}")
    code += c.free
    return fparams, body(p, c.fparams, c.hidden, code, True, fn_c, c.transient)


def fortran_arg_count(p):
    """Arguments a Fortran compiler passes: each parameter, ierror, and one
    hidden length per CHARACTER argument (arrays of strings included)."""
    if p.name in SPECIAL:
        return len(SPECIAL[p.name][0])
    return len(p.params) + 1 + sum(1 for q in p.params if "char" in q.decl)


def entry(name, fparams, call_args, conv):
    ps = ", ".join(fparams)
    return [f"MC_EXPORT void {name}({ps});",
            f"MC_EXPORT void {name}({ps})", "{",
            f"    mcf_{call_args[0]}({conv}, __builtin_return_address(0), {', '.join(call_args[1:])});", "}"]


def alias(name, target, fparams):
    return [f"MC_EXPORT void {name}({', '.join(fparams)}) __attribute__((alias(\"{target}\")));"]


def forwarding(name, p, fn_c):
    n = fortran_arg_count(p)
    ps = ", ".join(f"void *a{i}" for i in range(n))
    args = ", ".join(f"a{i}" for i in range(n))
    return [f"MC_EXPORT void {name}({ps});",
            f"MC_EXPORT void {name}({ps})", "{",
            f"    typedef void (*fn_t)({', '.join(['void *'] * n)});",
            "    static fn_t real_;",
            "    fn_t r_ = __atomic_load_n(&real_, __ATOMIC_ACQUIRE);",
            "    if (!r_) {",
            f"        r_ = (fn_t)mc_f_next(\"{name}\");",
            "        __atomic_store_n(&real_, r_, __ATOMIC_RELEASE);",
            "    }",
            "    mc_lang_frame fr_;",
            f"    int raised_ = mc_lang_enter(&fr_, MC_FN_{p.name}, {fn_c}, __builtin_return_address(0), MC_LANG_FORTRAN);",
            f"    r_({args});",
            "    mc_lang_leave(&fr_, raised_);",
            "}"]


def manglings(p):
    # The names Fortran compilers on Linux give MPI_SEND: gfortran, Intel's,
    # flang, nvfortran and Cray's append one underscore (g77 two). Not the
    # bare lowercase and uppercase forms the MPI libraries also define:
    # preloaded, the checker's symbols come first in every lookup of the
    # process, and C libraries have functions of those names (R's Rmpi
    # defines mpi_comm_size, mpi_send, ...; they resolved to these entry
    # points and crashed at Rmpi's first call).
    low = p.name.lower()
    return [low + "_", low + "__"]


def param_names(fparams):
    return [re.split(r"[\s*]+", f)[-1] for f in fparams]


def main():
    inputs = gw.load_inputs(__doc__, "gen_fortran")
    if inputs is None:
        return 1
    a, protos, decls, exports = inputs
    names = {p.name for p in protos}
    ompi, mpich = [], []
    made = []
    head = ["/* DO NOT EDIT: generated by wrappers/gen_fortran.py from wrappers/mpi.protos */",
            '#pragma GCC diagnostic ignored "-Wdeprecated-declarations"',
            "#include <stdlib.h>", "#include <mpi.h>", '#include "dispatch.h"', '#include "fortran.h"', '#include "skipped.h"',
            '#include "mc_fn_ids.h"', "",
            "_Static_assert(sizeof(MPI_Fint) == sizeof(int), \"INTEGER is C int\");",
            "#ifdef MPI_F_STATUS_SIZE", "#define MC_F_STATUS_INTS MPI_F_STATUS_SIZE", "#else",
            "#define MC_F_STATUS_INTS ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))", "#endif", "",
            "/* Handle conversions: MPICH's are macros (its handles are integers in",
            " * both languages), Open MPI's functions (the PMPI_ ones: no wrapper). */"]
    for x in sorted(set(HANDLES.values())):
        head += [f"#ifdef MPI_{x}_f2c", f"#define MCF_{x}_f2c MPI_{x}_f2c", f"#define MCF_{x}_c2f MPI_{x}_c2f",
                 "#else", f"#define MCF_{x}_f2c PMPI_{x}_f2c", f"#define MCF_{x}_c2f PMPI_{x}_c2f", "#endif"]
    head.append("")
    bodies = []
    for p in protos:
        hdr = decls.get(p.name)
        if hdr is None or (exports and p.name not in exports) or C_ONLY.search(p.name):
            continue
        if p.name.endswith("_c") and p.name[:-2] in names:
            continue    # large-count forms: mpi_f08 only, by generic name
        if hdr[0] != "int" or len(hdr[1]) != len(p.params):
            continue
        fn_c = f"MC_FN_{p.name}_c" if p.name + "_c" in names else "-1"
        try:
            fparams, lines = converting(p, hdr[1], set(decls), fn_c)
            conv = True
        except Unsupported as e:
            conv, why = False, str(e)
        args = [p.name] + param_names(fparams) if conv else None
        low = p.name.lower()
        if conv:
            bodies += lines + [""]
            m = manglings(p)
            ompi += entry(m[0], fparams, args, "MC_F_LEGACY")
            ompi += [x for n in m[1:] + [f"o{low}_f"] for x in alias(n, m[0], fparams)]
            if not MPICH_F08_SKIP.search(p.name):
                mpich += entry(f"{low}_f08_", fparams, args, "MC_F_F08")
            made.append(f"{p.name} converted")
        else:
            made.append(f"{p.name} not converted: {why}")
        # The library's binding, with the Fortran call site and name.
        ompi += forwarding(f"{low}_f08_", p, fn_c)
        m = manglings(p)
        mpich += forwarding(m[0], p, fn_c)
        mpich += [x for n in m[1:] for x in alias(n, m[0], [f"void *a{i}" for i in range(fortran_arg_count(p))])]
        if any(gw.type_only(d).replace("const ", "").strip() in ("void *",) for d in hdr[1]):
            mpich += forwarding(f"{low}_f08ts_", p, fn_c)
        ompi.append("")
        mpich.append("")
    text = head + bodies + ["#if defined(OPEN_MPI)"] + ompi + ["#elif defined(MPICH_VERSION)"] + mpich + ["#endif", ""]
    gw.write_if_changed(a.out_dir, "mc_fortran.c", "\n".join(text))
    gw.write_if_changed(a.out_dir, "mc_fortran.txt", "\n".join(made) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
