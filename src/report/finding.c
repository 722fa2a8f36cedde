/*
 * finding.c - the class vocabulary (names, descriptions), severity names and
 * freeing of a finding. No MPI, no JSON: linked into both the library and the
 * launcher.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finding.h"

/* Indexed by mc_class. The names are the public interface (JSON "class",
 * SARIF ruleId, docs/checks.md headings): never rename one. */
static const struct {
    const char *name;
    const char *description;
} classes[MC_CLASS_COUNT_] = {
    [MC_CLASS_DEADLOCK] = {"deadlock",
        "Ranks are blocked forever, each waiting for an operation of another "
        "rank in the cycle."},
    [MC_CLASS_POTENTIAL_DEADLOCK] = {"potential-deadlock",
        "The calls deadlock when the MPI library does not buffer standard-mode "
        "sends; the run only completed thanks to buffering."},
    [MC_CLASS_COLLECTIVE_MISMATCH] = {"collective-mismatch",
        "Ranks of one communicator call different collectives, or the same "
        "collective with inconsistent root, operation, count or datatype."},
    [MC_CLASS_TYPE_MISMATCH] = {"type-mismatch",
        "The type signatures of matching send and receive operations differ."},
    [MC_CLASS_INVALID_ARGUMENT] = {"invalid-argument",
        "An MPI call got an invalid argument, such as a negative count, a rank "
        "or tag out of range, or a null or freed handle."},
    [MC_CLASS_REQUEST_FREE_ACTIVE] = {"request-free-active",
        "MPI_Request_free was called on an active point-to-point request: MPI "
        "completes it in the background, but the program can no longer learn "
        "when its buffer may be reused, and an error in it ends the job."},
    [MC_CLASS_REQUEST_LEAK] = {"request-leak",
        "A nonblocking or persistent request was neither completed nor freed "
        "before MPI_Finalize."},
    [MC_CLASS_RESOURCE_LEAK] = {"resource-leak",
        "A communicator, datatype, group, operation or other MPI object was "
        "not freed before MPI_Finalize."},
    [MC_CLASS_LOST_MESSAGE] = {"lost-message",
        "A message was sent but never received before MPI_Finalize."},
    [MC_CLASS_BUFFER_MODIFIED] = {"buffer-modified",
        "The buffer of a pending nonblocking operation was modified before "
        "the operation completed."},
    [MC_CLASS_INTERCOMM_MISMATCH] = {"intercomm-mismatch",
        "The two groups of an intercommunicator make mismatched calls or pass "
        "incompatible arguments."},
    [MC_CLASS_INTERCOMM_NONUNIFORM] = {"intercomm-nonuniform",
        "The creation of an intercommunicator, or of a communicator from one, "
        "ended differently across its processes: some got the new communicator "
        "and others an error, or they see its ranks in different orders."},
    [MC_CLASS_CALL_ORDER] = {"call-order",
        "MPI calls were made in an invalid order, such as before MPI_Init or "
        "after MPI_Finalize."},
    [MC_CLASS_RANK_EXIT] = {"rank-exit",
        "A rank ended while the job ran: killed by a signal (a crash) or "
        "exited without calling MPI_Finalize; the other ranks may wait for it "
        "forever."},
    [MC_CLASS_BUFFER_OVERLAP] = {"buffer-overlap",
        "Two buffers that MPI may use at the same time overlap, and at least "
        "one is written: a call's send and receive buffers, or the buffers of "
        "active operations."},
    [MC_CLASS_MPI_ERROR] = {"mpi-error",
        "The MPI library raised an error in a call whose error handler is "
        "MPI_ERRORS_ARE_FATAL, and the job ends: the call, MPI's error string, "
        "and what the checker found before it."},
    [MC_CLASS_HANG] = {"hang",
        "The job hung: every rank was inside an MPI call or had ended, and "
        "no rank made progress for --hang-timeout seconds; each rank's call "
        "and stack are shown and the job is ended."},
};

const char *mc_class_name(mc_class cls)
{
    /* The cast catches negative values from a stray int as well. */
    if ((unsigned)cls >= MC_CLASS_COUNT_)
        return NULL;
    return classes[cls].name;
}

int mc_class_from_name(const char *name)
{
    if (name == NULL)
        return -1;
    for (int i = 0; i < MC_CLASS_COUNT_; i++)
        if (strcmp(classes[i].name, name) == 0)
            return i;
    return -1;
}

const char *mc_severity_name(mc_severity sev)
{
    switch (sev) {
    case MC_SEV_ERROR:
        return "error";
    case MC_SEV_WARNING:
        return "warning";
    }
    return NULL;
}

const char *mc_class_description(mc_class cls)
{
    if ((unsigned)cls >= MC_CLASS_COUNT_)
        return NULL;
    return classes[cls].description;
}

void mc_finding_clear(mc_finding *f)
{
    if (f == NULL)
        return;
    free(f->message);
    free(f->cause);
    free(f->suppressed);
    free(f->ranks);
    /* Readers allocate arrays zeroed and set their counts up front (see
     * mc_finding_from_json in part.c), so a half-built finding frees too. */
    for (size_t c = 0; f->calls && c < f->ncalls; c++) {
        mc_call_text *call = &f->calls[c];
        free(call->call);
        for (size_t a = 0; call->args && a < call->nargs; a++) {
            free(call->args[a].name);
            free(call->args[a].value);
        }
        free(call->args);
        for (size_t s = 0; call->stack && s < call->nframes; s++) {
            free(call->stack[s].function);
            free(call->stack[s].file);
            free(call->stack[s].module);
        }
        free(call->stack);
    }
    free(f->calls);
    memset(f, 0, sizeof *f);
}

/* How bad each class is: the severity of its findings and SARIF's default level. */
static const mc_severity default_level[MC_CLASS_COUNT_] = {
    [MC_CLASS_DEADLOCK] = MC_SEV_ERROR,
    [MC_CLASS_POTENTIAL_DEADLOCK] = MC_SEV_WARNING,
    [MC_CLASS_COLLECTIVE_MISMATCH] = MC_SEV_ERROR,
    [MC_CLASS_TYPE_MISMATCH] = MC_SEV_ERROR,
    [MC_CLASS_INVALID_ARGUMENT] = MC_SEV_ERROR,
    [MC_CLASS_REQUEST_FREE_ACTIVE] = MC_SEV_WARNING,
    [MC_CLASS_REQUEST_LEAK] = MC_SEV_WARNING,
    [MC_CLASS_RESOURCE_LEAK] = MC_SEV_WARNING,
    [MC_CLASS_LOST_MESSAGE] = MC_SEV_WARNING,
    [MC_CLASS_BUFFER_MODIFIED] = MC_SEV_ERROR,
    [MC_CLASS_INTERCOMM_MISMATCH] = MC_SEV_ERROR,
    [MC_CLASS_INTERCOMM_NONUNIFORM] = MC_SEV_ERROR,
    [MC_CLASS_CALL_ORDER] = MC_SEV_ERROR,
    [MC_CLASS_RANK_EXIT] = MC_SEV_ERROR,
    [MC_CLASS_BUFFER_OVERLAP] = MC_SEV_ERROR,
    [MC_CLASS_MPI_ERROR] = MC_SEV_ERROR,
    [MC_CLASS_HANG] = MC_SEV_ERROR,
};

mc_severity mc_class_default_severity(mc_class cls)
{
    return cls >= 0 && cls < MC_CLASS_COUNT_ ? default_level[cls] : MC_SEV_ERROR;
}

/* The C runtime's frames below main (glibc, musl): the application's code is
 * above them. */
static int runtime_entry(const char *function)
{
    return function && (strncmp(function, "__libc_start", 12) == 0 || strcmp(function, "_start") == 0
                        || strcmp(function, "libc_start_main") == 0);
}

void mc_call_text_fortran_name(mc_call_text *c)
{
    for (char *q = c ? c->call : NULL; q && *q; q++)
        *q = (char)toupper((unsigned char)*q);
}

const mc_frame *mc_call_site(const mc_call_text *c)
{
    for (size_t i = 0; c && c->stack && i < c->nframes; i++) {
        if (runtime_entry(c->stack[i].function))
            return NULL;
        if (c->stack[i].file)
            return &c->stack[i];
    }
    return NULL;
}

char *mc_call_site_text(const mc_call_text *c, char *buf, size_t len)
{
    if (len)
        buf[0] = '\0';
    const mc_frame *f = mc_call_site(c);
    if (f) {
        const char *base = strrchr(f->file, '/');
        snprintf(buf, len, "%s:%d", base ? base + 1 : f->file, f->line);
        return buf;
    }
    /* No source line (a stripped program, a library without debug
     * information): the innermost frame's function, else its module and
     * offset, which addr2line takes and which is the same on every rank,
     * so findings and members made at different places still read apart. */
    f = c && c->stack && c->nframes ? &c->stack[0] : NULL;
    if (!f || runtime_entry(f->function))
        return buf;
    const char *base = f->module ? strrchr(f->module, '/') : NULL;
    base = base ? base + 1 : f->module;
    if (f->function)
        snprintf(buf, len, "%s", f->function);
    else if (base && f->offset)
        snprintf(buf, len, "%s+0x%lx", base, (unsigned long)f->offset);
    return buf;
}
