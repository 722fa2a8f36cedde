/*
 * leaks.c - resource-leak and request-leak, at MPI_Finalize: every object the
 * application created and never freed, and every request never completed or
 * (persistent) never freed.
 *
 * Leaks from one call site are folded into one finding with a count: a loop
 * that leaks a request per iteration is one bug, not ten thousand.
 */
#include <stdio.h>
#include <stdlib.h>
#include "checks.h"
#include "skipped.h"
#include "objects.h"
#include "report.h"

typedef struct {
    int kind;
    int state;          /* requests: 1 active (never completed), 0 inactive persistent */
    const mc_obj *first;
    int count;
    long tests, starts;     /* requests: of all the site's leaks (leak reports say how far they got) */
    long cancelled;         /* requests: how many of them MPI_Cancel marked */
    long handed, held;      /* groups: references handed out, and not freed (objects.h) */
} leak_site;

typedef struct {
    leak_site *sites;
    int n, cap;
} leak_list;

static int same_site(const leak_site *s, const mc_obj *o, int state)
{
    return s->kind == (int)o->key.kind && s->state == state && s->first->origin.fn == o->origin.fn
        && s->first->origin.npcs > 0 && o->origin.npcs > 0
        && s->first->origin.pcs[0] == o->origin.pcs[0];
}

static void collect(mc_obj *o, void *arg)
{
    leak_list *l = arg;
    if (!o->owned)
        return;
    int state = o->key.kind == MC_OBJ_REQUEST ? o->active : 0;
    for (int i = 0; i < l->n; i++) {
        if (same_site(&l->sites[i], o, state)) {
            l->sites[i].count++;
            l->sites[i].tests += o->tests;
            l->sites[i].starts += o->starts;
            l->sites[i].cancelled += o->cancelled != 0;
            l->sites[i].handed += o->handed;
            l->sites[i].held += o->copies + 1;
            return;
        }
    }
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 16;
        leak_site *s = mc_realloc(l->sites, (size_t)cap * sizeof *s);
        if (!s)
            return;
        l->sites = s;
        l->cap = cap;
    }
    l->sites[l->n++] = (leak_site){(int)o->key.kind, state, o, 1, o->tests, o->starts,
                                   o->cancelled != 0, o->handed, o->copies + 1L};
}

static const char *free_call(int kind)
{
    switch (kind) {
    case MC_OBJ_COMM: return "MPI_Comm_free";
    case MC_OBJ_DATATYPE: return "MPI_Type_free";
    case MC_OBJ_GROUP: return "MPI_Group_free";
    case MC_OBJ_OP: return "MPI_Op_free";
    case MC_OBJ_ERRHANDLER: return "MPI_Errhandler_free";
    case MC_OBJ_WIN: return "MPI_Win_free";
    default: return "MPI_Request_free";
    }
}

static void report_site(const leak_site *s)
{
    const mc_obj *o = s->first;
    const char *creator = mc_fn_table[o->origin.fn].name;
    const char *plural = s->count > 1 ? "s" : "";
    if (s->kind == MC_OBJ_GROUP && s->handed > s->count) {
        /* One handle, several references (objects.h): the program freed
         * fewer than it was given. Which call's reference was left is not
         * known; the entry names the first. */
        mc_report_origin(MC_CLASS_RESOURCE_LEAK, &o->origin,
                         "%d group%s created by %s %s never freed before MPI_Finalize: MPI "
                         "handed out the same handle %ld times in all (first by this call), "
                         "each a reference that needs its own MPI_Group_free, and it was "
                         "freed %ld time%s", s->count, plural, creator,
                         s->count > 1 ? "were" : "was", s->handed, s->handed - s->held,
                         s->handed - s->held == 1 ? "" : "s");
    } else if (s->kind != MC_OBJ_REQUEST) {
        mc_report_origin(MC_CLASS_RESOURCE_LEAK, &o->origin,
                         "%d %s%s created by %s %s never freed before MPI_Finalize (call %s)",
                         s->count, mc_obj_kind_name(s->kind), plural, creator,
                         s->count > 1 ? "were" : "was", free_call(s->kind));
    } else if (s->state && s->cancelled > 0) {
        /* MPI_Cancel only marks a request: it still has to be completed
         * (MPI-4.0 sec. 3.8.4), which is what was left out here. */
        char which[48] = "";
        if (s->cancelled < s->count)
            snprintf(which, sizeof which, "%ld of them ", s->cancelled);
        mc_report_origin(MC_CLASS_REQUEST_LEAK, &o->origin,
                         "%d request%s started by %s %s never completed before MPI_Finalize "
                         "(%scancelled with MPI_Cancel, which only marks a request: it must "
                         "still be completed with MPI_Wait/MPI_Test or freed with "
                         "MPI_Request_free)", s->count, plural, creator,
                         s->count > 1 ? "were" : "was", which);
    } else if (s->state) {
        char tested[96] = "never waited on or tested";
        if (s->tests > 0)
            snprintf(tested, sizeof tested, "tested %ld time%s without completing", s->tests,
                     s->tests > 1 ? "s" : "");
        mc_report_origin(MC_CLASS_REQUEST_LEAK, &o->origin,
                         "%d request%s started by %s %s never completed before MPI_Finalize "
                         "(%s%s; complete it with MPI_Wait/MPI_Test, after MPI_Cancel if its "
                         "message will never come)", s->count,
                         plural, creator, s->count > 1 ? "were" : "was", tested,
                         s->count > 1 ? " in all" : "");
    } else {
        char started[64] = "never started";
        if (s->starts == 1)
            snprintf(started, sizeof started, "started once and completed");
        else if (s->starts > 1)
            snprintf(started, sizeof started, "started %ld times, each start completed", s->starts);
        mc_report_origin(MC_CLASS_REQUEST_LEAK, &o->origin,
                         "%d persistent request%s created by %s %s never freed before MPI_Finalize "
                         "(%s%s; call MPI_Request_free)", s->count, plural, creator,
                         s->count > 1 ? "were" : "was", started, s->count > 1 ? " in all" : "");
    }
}

void mc_check_leaks_at_finalize(void)
{
    leak_list l = {0};
    mc_obj_foreach(-1, collect, &l);
    for (int i = 0; i < l.n; i++)
        report_site(&l.sites[i]);
    free(l.sites);
}
