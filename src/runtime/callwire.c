/*
 * callwire.c - a call as text that another process can show with its
 * file:line: the call and its arguments (calltext.h), then this process's
 * stack as call sites (site.c), one "P mod off" line per frame. The
 * receiver resolves the sites in its own copy of each module.
 *
 * RATIONALE: a first DWARF lookup costs tens of ms; the process that
 * writes the finding resolves every stack once, instead of each sender
 * resolving its own (the deadlock detector's answers came after its grace
 * period when every rank of a large deadlock did the lookup at once).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "calltext.h"
#include "report.h"
#include "runtime.h"
#include "skipped.h"
#include "stack.h"

void mc_call_wire(const mc_call *c, char *text, size_t cap)
{
    uintptr_t pcs[MC_ORIGIN_MAX_PCS * 2];
    size_t np = mc_stack_capture(pcs, sizeof pcs / sizeof pcs[0]);
    mc_call_wire_of(c, pcs, np, 0, NULL, text, cap);
}

void mc_call_wire_of(const mc_call *c, const uintptr_t *stack, size_t nstack, int tid, const char *thread_name,
                     char *text, size_t cap)
{
    mc_call_text ct;
    mc_report_fill_call_args(&ct, c);
    ct.tid = tid;
    snprintf(ct.thread_name, sizeof ct.thread_name, "%s", thread_name ? thread_name : "");
    /* Python frames travel as text (the receiver has no interpreter of
     * this process); the C frames as call sites after them. Only the
     * calling thread's interpreter state is at hand. */
    if (!tid)
        mc_stack_prepend_python(&ct.stack, &ct.nframes);
    mc_calltext_serialize(&ct, text, cap);
    mc_finding tmp = {.calls = mc_malloc(sizeof ct), .ncalls = 1};
    if (tmp.calls) {
        tmp.calls[0] = ct;
        mc_finding_clear(&tmp);
    }
    uintptr_t one;
    const uintptr_t *pcs = stack;
    size_t np = nstack;
    if (np == 0 && c->caller) {
        one = (uintptr_t)c->caller;
        pcs = &one;
        np = 1;
    }
    for (size_t i = 0; i < np; i++) {
        uint64_t mod, off;
        mc_site_encode((const void *)pcs[i], &mod, &off);
        size_t len = strlen(text);
        snprintf(text + len, cap - len, "P\t%" PRIx64 "\t%" PRIx64 "\n", mod, off);
    }
}

/* The "P mod off" lines: the stack as call sites, resolved here (frames
 * this process cannot map keep their address). */
static void resolve_sites(const char *text, mc_call_text *ct)
{
    size_t n = 0;
    for (const char *p = text; p && (p = strstr(p, "\nP\t")); p++)
        n++;
    if (!n)
        return;
    uintptr_t *pcs = mc_calloc(n, sizeof *pcs);
    size_t k = 0;
    for (const char *p = text; pcs && (p = strstr(p, "\nP\t")) && k < n; p++) {
        uint64_t mod = 0, off = 0;
        uintptr_t a = sscanf(p + 3, "%" SCNx64 "\t%" SCNx64, &mod, &off) == 2 ? mc_site_decode(mod, off) : 0;
        if (a)
            pcs[k++] = a;
    }
    mc_frame *frames = NULL;
    if (k)
        k = mc_stack_resolve_inlined(pcs, k, &frames);
    if (!frames || !k) {
        free(pcs);
        free(frames);
        return;
    }
    /* Frames that came as text (a Python script's) stay in front. */
    mc_frame *all = ct->nframes ? mc_realloc(ct->stack, (ct->nframes + k) * sizeof *all) : NULL;
    if (all) {
        memcpy(all + ct->nframes, frames, k * sizeof *all);
        ct->stack = all;
        ct->nframes += k;
        free(frames);
    } else if (ct->nframes) {
        mc_frames_free(frames, k);      /* no memory: the text frames are kept */
        free(frames);
    } else {
        free(ct->stack);
        ct->stack = frames;
        ct->nframes = k;
    }
    free(pcs);
}

void mc_call_unwire(const char *text, int rank, mc_call_text *ct)
{
    mc_calltext_parse(text ? text : "", rank, ct);
    resolve_sites(text, ct);
}
