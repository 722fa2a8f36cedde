/*
 * site.c - call sites that mean something in another process: a return
 * address becomes (hash of its module's file name, offset in the module).
 * The receiver of an envelope turns that back into an address in its own
 * copy of the module, when it has loaded the same one (every SPMD program,
 * and the shared libraries of MPMD ones), and resolves file:line there.
 *
 * RATIONALE: addresses differ between processes (ASLR); resolving file:line
 * on the sender for every send would cost a DWARF lookup per call site and
 * bytes in every envelope. dladdr is cached per address, so a send pays one
 * table probe.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include "runtime_internal.h"

static uint64_t name_hash(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    uint64_t h = 1469598103934665603ULL;
    for (; *base; base++)
        h = (h ^ (unsigned char)*base) * 1099511628211ULL;
    return h ? h : 1;
}

/* The main program's file name: dladdr gives argv[0]'s spelling for it. */
static const char *exe_name(void)
{
    return program_invocation_name ? program_invocation_name : "";
}

#define SITE_SLOTS 256
static struct { const void *pc; uint64_t mod, off; } cache[SITE_SLOTS];

void mc_site_encode(const void *pc, uint64_t *mod, uint64_t *off)
{
    unsigned slot = (unsigned)(((uintptr_t)pc >> 2) * 0x9E3779B1u) % SITE_SLOTS;
    if (pc && cache[slot].pc == pc) {
        *mod = cache[slot].mod;
        *off = cache[slot].off;
        return;
    }
    Dl_info info;
    if (pc && dladdr(pc, &info) && info.dli_fbase) {
        const char *fname = info.dli_fname && info.dli_fname[0] ? info.dli_fname : exe_name();
        *mod = name_hash(fname);
        *off = (uint64_t)((uintptr_t)pc - (uintptr_t)info.dli_fbase);
    } else {
        *mod = 0;
        *off = (uint64_t)(uintptr_t)pc;
    }
    cache[slot].pc = pc;
    cache[slot].mod = *mod;
    cache[slot].off = *off;
}

struct find_ctx { uint64_t mod; uintptr_t base; };

static int find_module(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct find_ctx *fc = arg;
    const char *name = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : exe_name();
    if (name_hash(name) != fc->mod)
        return 0;
    /* dladdr's base of this module: ask it about the first loaded segment. */
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type == PT_LOAD) {
            Dl_info di;
            void *addr = (void *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
            if (dladdr(addr, &di) && di.dli_fbase) {
                fc->base = (uintptr_t)di.dli_fbase;
                return 1;
            }
        }
    }
    return 0;
}

uintptr_t mc_site_decode(uint64_t mod, uint64_t off)
{
    if (mod == 0)
        return 0;
    struct find_ctx fc = {mod, 0};
    dl_iterate_phdr(find_module, &fc);
    return fc.base ? fc.base + (uintptr_t)off : 0;
}
