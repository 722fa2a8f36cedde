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
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>

#include "stack.h"
#include "skipped.h"

void mc_frame_resolve(Dwfl_Module *mod, uintptr_t pc, mc_frame *f)
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
    if (fn) /* "__libc_start_main@@GLIBC_2.34": the version is noise here */
        f->function = mc_strndup(fn, strcspn(fn, "@"));
    Dwfl_Line *l = dwfl_module_getsrc(mod, a); /* NULL without debug info */
    if (l) {
        const char *file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
        if (file) {
            f->file = mc_strdup(file);
            f->line = line;
        }
    }
}

void mc_stack_resolve_pid(int pid, const uintptr_t *pcs, size_t n, mc_frame *out)
{
    static char *debuginfo_path; /* NULL: libdwfl's default search path */
    static const Dwfl_Callbacks cbs = {
        .find_elf = dwfl_linux_proc_find_elf,
        .find_debuginfo = dwfl_standard_find_debuginfo,
        .debuginfo_path = &debuginfo_path,
    };
    for (size_t i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].pc = pcs[i];
    }
    Dwfl *d = dwfl_begin(&cbs);
    if (!d)
        return;
    dwfl_report_begin(d);
    int rc = dwfl_linux_proc_report(d, pid);
    if (dwfl_report_end(d, NULL, NULL) == 0 && rc == 0)
        for (size_t i = 0; i < n; i++) {
            Dwfl_Module *mod = pcs[i] ? dwfl_addrmodule(d, pcs[i] - 1) : NULL;
            if (mod)
                mc_frame_resolve(mod, pcs[i], &out[i]);
        }
    dwfl_end(d);
}
