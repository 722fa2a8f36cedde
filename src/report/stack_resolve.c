/*
 * stack_resolve.c - return addresses to function, file and line with
 * libdwfl: one frame in a module already found (stack.c, for this
 * process), or a whole stack of another process, read in that process's
 * own mappings (the launcher, for the stacks of a hung job's ranks:
 * launcher/hang.c). In the report library because both sides use it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>

#include "stack.h"
#include "skipped.h"

typedef char *(*demangle_fn)(const char *mangled, char *out, size_t *len, int *status);

/* The C++ runtime's demangler: where a C++ program runs it is loaded
 * already; the launcher (reading a hung C++ rank's stack) loads it the
 * first time it meets a mangled name. NULL where there is none. */
static demangle_fn demangler(void)
{
    static demangle_fn fn;
    static int looked;
    if (!__atomic_load_n(&looked, __ATOMIC_ACQUIRE)) {
        demangle_fn f = (demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
        if (!f) {
            void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
            if (h)
                f = (demangle_fn)dlsym(h, "__cxa_demangle");
        }
        fn = f;
        __atomic_store_n(&looked, 1, __ATOMIC_RELEASE);
    }
    return fn;
}

/* A function's name as its source spells it: C++ names demangled
 * ("boost::mpi::detail::packed_archive_send(...)" for
 * "_ZN5boost3mpi6detail19packed_archive_send..."), others as they are. */
char *mc_function_name(const char *symbol)
{
    size_t n = strcspn(symbol, "@");   /* "__libc_start_main@@GLIBC_2.34": the version is noise */
    char *name = mc_strndup(symbol, n);
    if (!name || n < 3 || name[0] != '_' || name[1] != 'Z')
        return name;
    demangle_fn f = demangler();
    int status = -1;
    char *plain = f ? f(name, NULL, NULL, &status) : NULL;
    if (plain && status == 0) {
        char *kept = mc_strdup(plain);
        if (kept) {
            free(name);
            name = kept;
        }
    }
    free(plain);    /* the demangler's own malloc */
    return name;
}

/* pc's frame as the symbol table and the line table give it: the
 * function the code is in, and the line of the code (of an inlined
 * subroutine's, when the compiler inlined one there). */
static void frame_of_symbol(Dwfl_Module *mod, uintptr_t pc, mc_frame *f)
{
    /* pc is a return address: pc - 1 is inside the call instruction, which
     * matters when the call is the last instruction of a function or line. */
    Dwarf_Addr a = pc - 1;
    int line = 0;

    const char *path =
        dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
    if (path)
        f->module = mc_strdup(path);
    /* The address in the module's file: a stripped program's frames have
     * nothing else that is the same on every rank (each loads the
     * executable and libraries at addresses of its own). */
    Dwarf_Addr rel = pc;
    if (dwfl_module_relocate_address(mod, &rel) >= 0)
        f->offset = (uintptr_t)rel;
    const char *fn = dwfl_module_addrname(mod, a);
    if (fn)
        f->function = mc_function_name(fn);
    Dwfl_Line *l = dwfl_module_getsrc(mod, a); /* NULL without debug info */
    if (l) {
        const char *file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
        if (file) {
            f->file = mc_strdup(file);
            f->line = line;
        }
    }
}

/* The name of an inlined subroutine's DIE (its abstract origin's): the
 * linkage name demangled, as the symbol table would give it, else the
 * plain name. NULL when it has neither. */
static char *inlined_name(Dwarf_Die *die)
{
    Dwarf_Attribute at;
    const char *s = NULL;
    if (dwarf_attr_integrate(die, DW_AT_linkage_name, &at)
        || dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at))
        s = dwarf_formstring(&at);
    if (!s)
        s = dwarf_diename(die);
    return s ? mc_function_name(s) : NULL;
}

/* Where an inlined subroutine was called from: its call file and line. */
static void call_site_of(Dwarf_Die *die, Dwarf_Files *files, size_t nfiles, mc_frame *f)
{
    Dwarf_Attribute at;
    Dwarf_Word file = 0, line = 0;
    if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &at), &line) == 0)
        f->line = (int)line;
    if (files && dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &at), &file) == 0 && file < nfiles) {
        const char *name = dwarf_filesrc(files, file, NULL, NULL);
        if (name)
            f->file = mc_strdup(name);
    }
}

size_t mc_frame_resolve_inlined(Dwfl_Module *mod, uintptr_t pc, mc_frame *f, size_t max)
{
    frame_of_symbol(mod, pc, &f[0]);
    if (!f[0].file)
        return 1;
    /* The scopes at the call instruction, innermost first: an inlined
     * subroutine's code is its own frame as the program was written (the
     * symbol table names only the function it was inlined into, so a C++
     * program's frame read "main (communicator.hpp:1288)"). */
    Dwarf_Addr bias = 0, a = pc - 1;
    Dwarf_Die *cu = dwfl_module_addrdie(mod, a, &bias);
    Dwarf_Die *at = NULL, *scopes = NULL;
    int nat = cu ? dwarf_getscopes(cu, a - bias, &at) : 0, ns = 0;
    /* Past an inlined subroutine dwarf_getscopes goes on with the scopes
     * of its abstract definition (a class, a namespace); the chain of
     * callers is the concrete one, the parents of its DIE in this unit. */
    for (int i = 0; i < nat; i++) {
        int tag = dwarf_tag(&at[i]);
        if (tag == DW_TAG_inlined_subroutine)
            ns = dwarf_getscopes_die(&at[i], &scopes);
        if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram)
            break;
    }
    free(at);
    Dwarf_Files *files = NULL;
    size_t nfiles = 0, k = 1;
    if (ns > 0 && dwarf_getsrcfiles(cu, &files, &nfiles) != 0)
        files = NULL;
    /* The outermost frame's name: the function the code was inlined into. */
    const char *sym = ns > 0 ? dwfl_module_addrname(mod, a) : NULL;
    for (int i = 0; i < ns; i++) {
        int tag = dwarf_tag(&scopes[i]);
        if (tag == DW_TAG_subprogram)
            break;
        if (tag != DW_TAG_inlined_subroutine)
            continue;
        if (k == max) {
            /* No room for its caller's frame: the innermost still gets its
             * own name (one frame: the innermost code, named for it). */
            if (k == 1) {
                char *name = inlined_name(&scopes[i]);
                if (name) {
                    free(f[0].function);
                    f[0].function = name;
                }
            }
            break;
        }
        /* Frame k-1 is this subroutine's code; frame k is its caller's,
         * at the call, named as the symbol table names the function until
         * an outer inlined scope names it better. */
        char *name = inlined_name(&scopes[i]);
        if (name) {
            free(f[k - 1].function);
            f[k - 1].function = name;
        }
        mc_frame *c = &f[k];
        memset(c, 0, sizeof *c);
        c->pc = f[0].pc;
        c->offset = f[0].offset;
        c->module = f[0].module ? mc_strdup(f[0].module) : NULL;
        call_site_of(&scopes[i], files, nfiles, c);
        c->function = sym ? mc_function_name(sym) : NULL;
        k++;
    }
    free(scopes);
    return k;
}

void mc_frame_resolve(Dwfl_Module *mod, uintptr_t pc, mc_frame *f)
{
    mc_frame_resolve_inlined(mod, pc, f, 1);
}

size_t mc_stack_resolve_pid(int pid, const uintptr_t *pcs, size_t n, mc_frame **out)
{
    static char *debuginfo_path; /* NULL: libdwfl's default search path */
    static const Dwfl_Callbacks cbs = {
        .find_elf = dwfl_linux_proc_find_elf,
        .find_debuginfo = dwfl_standard_find_debuginfo,
        .debuginfo_path = &debuginfo_path,
    };
    mc_frame *f = n ? mc_calloc(n * MC_INLINED_MAX, sizeof *f) : NULL;
    *out = f;
    if (!f)
        return 0;
    Dwfl *d = dwfl_begin(&cbs);
    int ok = 0;
    if (d) {
        dwfl_report_begin(d);
        int rc = dwfl_linux_proc_report(d, pid);
        ok = dwfl_report_end(d, NULL, NULL) == 0 && rc == 0;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        Dwfl_Module *mod = ok && pcs[i] ? dwfl_addrmodule(d, pcs[i] - 1) : NULL;
        f[k].pc = pcs[i];
        k += mod ? mc_frame_resolve_inlined(mod, pcs[i], &f[k], MC_INLINED_MAX) : 1;
    }
    if (d)
        dwfl_end(d);
    return k;
}
