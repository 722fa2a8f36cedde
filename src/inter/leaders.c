/*
 * leaders.c - the means the intercommunicator checks share: a max/min
 * record, waits on the checker's own reductions and broadcasts, and the
 * exchange between two leaders over the checker's copy of MPI_COMM_WORLD.
 *
 * Every wait runs in the engine's wait loop, never in a blocking MPI call:
 * a leader that names the wrong process as its remote leader then waits
 * where the deadlock detector sees it (it waits for that process, the
 * members of its group wait for it), and the detector's report replaces
 * the hang.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "inter_internal.h"
#include "report.h"
#include "skipped.h"
#include "state.h"

/* ---- the record ---------------------------------------------------------- */

void ic_rec_init(ic_rec *r)
{
    for (int i = 0; i < 2 * IC_FIELDS; i++)
        r->s[i] = IC_NONE;
}

void ic_rec_put(ic_rec *r, int f, int64_t v)
{
    if (v > r->s[2 * f])
        r->s[2 * f] = v;
    if (-v > r->s[2 * f + 1])
        r->s[2 * f + 1] = -v;
}

int ic_rec_get(const ic_rec *r, int f, int64_t *lo, int64_t *hi)
{
    if (r->s[2 * f] == IC_NONE)
        return 0;
    *hi = r->s[2 * f];
    *lo = -r->s[2 * f + 1];
    return 1;
}

void ic_rec_merge(ic_rec *a, const ic_rec *b)
{
    for (int i = 0; i < 2 * IC_FIELDS; i++)
        if (b->s[i] > a->s[i])
            a->s[i] = b->s[i];
}

int ic_rec_uniform(const ic_rec *r, int f)
{
    int64_t lo, hi;
    return ic_rec_get(r, f, &lo, &hi) && lo == hi;
}

/* ---- waits ----------------------------------------------------------------- */

typedef struct {
    MPI_Request *req;
    int waitee;
    int err;
} req_wait;

static int req_ready(void *ctx)
{
    req_wait *w = ctx;
    int flag = 0;
    if (PMPI_Test(w->req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
        w->err = 1;
        return 1;
    }
    return flag;
}

static void req_describe(void *ctx, mc_waitfor *w, int and_mode)
{
    (void)and_mode;
    req_wait *rw = ctx;
    if (rw->waitee < 0) {
        w->unknown = 1;     /* the members of this call, all in it: never blamed */
        return;
    }
    mc_waitfor_clause(w);
    mc_waitfor_add(w, rw->waitee);
}

static int wait_req(mc_call *c, MPI_Request *req, int waitee)
{
    req_wait w = {req, waitee, 0};
    mc_eng_lock();
    mc_eng_wait(c, req_ready, req_describe, &w);
    mc_eng_unlock();
    return w.err;
}

int ic_reduce(mc_call *c, ic_rec *r, MPI_Comm comm)
{
    ic_rec mine = *r;
    MPI_Request req;
    if (PMPI_Iallreduce(mine.s, r->s, 2 * IC_FIELDS, MPI_INT64_T, MPI_MAX, comm, &req) != MPI_SUCCESS)
        return 1;
    return wait_req(c, &req, -1);
}

int ic_bcast(mc_call *c, int *v, int root, MPI_Comm comm, int waitee)
{
    MPI_Request req;
    if (PMPI_Ibcast(v, 1, MPI_INT, root, comm, &req) != MPI_SUCCESS)
        return 1;
    return wait_req(c, &req, waitee);
}

/* ---- the leaders' exchange ------------------------------------------------- */

typedef struct {
    int peer;
    MPI_Request sreq;
    int sent, err;
    int recv;           /* a message from peer is awaited */
    ic_msg *got;
} xchg;

static int xchg_ready(void *ctx)
{
    xchg *x = ctx;
    if (!x->sent) {
        if (PMPI_Test(&x->sreq, &x->sent, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            x->err = x->sent = 1;
    }
    if (x->recv && !x->got && !x->err) {
        int flag = 0, n = 0;
        MPI_Status st;
        if (PMPI_Iprobe(x->peer, MC_WTAG_INTERCOMM, mc_st.world_dup, &flag, &st) != MPI_SUCCESS) {
            x->err = 1;
        } else if (flag) {
            PMPI_Get_count(&st, MPI_BYTE, &n);
            char *buf = mc_malloc(n > 0 ? (size_t)n + 1 : 1);
            /* Received even without memory: it must not stay queued. */
            char junk;
            if (PMPI_Recv(buf ? buf : &junk, buf ? n : 0, MPI_BYTE, x->peer, MC_WTAG_INTERCOMM,
                          mc_st.world_dup, MPI_STATUS_IGNORE) != MPI_SUCCESS || !buf) {
                free(buf);
                x->err = 1;
            } else {
                buf[n] = 0;
                ic_msg *m = (ic_msg *)buf;
                size_t want = sizeof *m;
                if ((size_t)n >= want && m->magic == IC_MAGIC && m->lsize >= 0 && m->textlen >= 0)
                    want += (size_t)m->lsize * sizeof(int32_t) + (size_t)m->textlen;
                if ((size_t)n < sizeof *m || m->magic != IC_MAGIC || (size_t)n != want) {
                    free(buf);
                    x->err = 1;
                } else {
                    x->got = m;
                }
            }
        }
    }
    return x->err || ((x->got || !x->recv) && x->sent);
}

static void xchg_describe(void *ctx, mc_waitfor *w, int and_mode)
{
    (void)and_mode;
    xchg *x = ctx;
    mc_waitfor_clause(w);
    mc_waitfor_add(w, x->peer);
}

/* Sends m (when given) and receives peer's message (when recv). */
static ic_msg *transfer(mc_call *c, int peer, const ic_msg *m, const int32_t *ranks, const char *text,
                        int recv, int *err)
{
    xchg x = {.peer = peer, .sreq = MPI_REQUEST_NULL, .recv = recv, .sent = m == NULL};
    char *out = NULL;
    *err = 1;
    if (m) {
        size_t len = sizeof *m + (size_t)m->lsize * sizeof(int32_t) + (size_t)m->textlen;
        if (!(out = mc_malloc(len)))
            return NULL;
        memcpy(out, m, sizeof *m);
        if (m->lsize)
            memcpy(out + sizeof *m, ranks, (size_t)m->lsize * sizeof(int32_t));
        if (m->textlen)
            memcpy(out + sizeof *m + (size_t)m->lsize * sizeof(int32_t), text, (size_t)m->textlen);
        if (PMPI_Isend(out, (int)len, MPI_BYTE, peer, MC_WTAG_INTERCOMM, mc_st.world_dup, &x.sreq) != MPI_SUCCESS) {
            free(out);
            return NULL;
        }
    }
    mc_eng_lock();
    mc_eng_wait(c, xchg_ready, xchg_describe, &x);
    mc_eng_unlock();
    if (!x.sent)    /* MPI failed while it was on its way: left to MPI rather than freed under it */
        return x.got;
    free(out);
    *err = x.err;
    if (x.err) {
        free(x.got);
        return NULL;
    }
    return x.got;
}

ic_msg *ic_exchange(mc_call *c, int peer, const ic_msg *m, const int32_t *ranks, const char *text)
{
    int err;
    return transfer(c, peer, m, ranks, text, 1, &err);
}

ic_msg *ic_receive(mc_call *c, int peer)
{
    int err;
    return transfer(c, peer, NULL, NULL, NULL, 1, &err);
}

int ic_send(mc_call *c, int peer, const ic_msg *m, const int32_t *ranks, const char *text)
{
    int err;
    transfer(c, peer, m, ranks, text, 0, &err);
    return err;
}

const int32_t *ic_msg_ranks(const ic_msg *m)
{
    return (const int32_t *)(const void *)((const char *)m + sizeof *m);
}

const char *ic_msg_text(const ic_msg *m)
{
    return m->textlen > 0 ? (const char *)m + sizeof *m + (size_t)m->lsize * sizeof(int32_t) : "";
}

/* ---- groups ---------------------------------------------------------------- */

int32_t *ic_world_ranks(MPI_Group g, int *n)
{
    MPI_Group wg;
    *n = 0;
    if (g == MPI_GROUP_NULL || PMPI_Group_size(g, n) != MPI_SUCCESS || *n < 0)
        return NULL;
    if (PMPI_Comm_group(MPI_COMM_WORLD, &wg) != MPI_SUCCESS)
        return NULL;
    int32_t *out = mc_malloc((size_t)(*n ? *n : 1) * sizeof *out);
    int *in = mc_malloc((size_t)(*n ? *n : 1) * sizeof *in), *tr = mc_malloc((size_t)(*n ? *n : 1) * sizeof *tr);
    int ok = out && in && tr;
    if (ok) {
        for (int i = 0; i < *n; i++)
            in[i] = i;
        ok = PMPI_Group_translate_ranks(g, *n, in, wg, tr) == MPI_SUCCESS;
        for (int i = 0; ok && i < *n; i++)
            out[i] = tr[i];
    }
    free(in);
    free(tr);
    PMPI_Group_free(&wg);
    if (!ok) {
        free(out);
        return NULL;
    }
    return out;
}

int64_t ic_ranks_hash(const int32_t *r, int n)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint32_t)r[i]) * 1099511628211ULL;
    return (int64_t)(h >> 2);
}

void ic_ranks_text(const int32_t *r, int n, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < n && at + 16 < len; i++) {
        int j = i;
        while (j + 1 < n && r[j + 1] == r[j] + 1)
            j++;
        const char *sep = i ? ", " : "";
        int w = r[i] == MPI_UNDEFINED ? snprintf(buf + at, len - at, "%s?", sep)
                : j > i + 1 ? snprintf(buf + at, len - at, "%s%d-%d", sep, r[i], r[j])
                : snprintf(buf + at, len - at, "%s%d", sep, r[i]);
        if (w < 0)
            break;
        at += (size_t)w;
        if (j > i + 1)
            i = j;
    }
    if (at + 16 >= len && len > 4)
        snprintf(buf + len - 5, 5, "...");
}

void ic_after_mismatch(int writer, const char *why)
{
    if (!mc_st.cfg.abort_on_deadlock)
        return;
    if (writer)
        mc_report_abort_job(why);
    for (int i = 0; i < 20000; i++) {      /* 20 s at most */
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

/* ---- findings -------------------------------------------------------------- */

mc_call_text *ic_their_call(const ic_msg *m)
{
    mc_call_text *ct = mc_calloc(1, sizeof *ct);
    if (ct)
        mc_call_unwire(ic_msg_text(m), m->world, ct);
    return ct;
}

int ic_mismatch_alone(mc_call *c, int *writer, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mc_report_call(MC_CLASS_INTERCOMM_MISMATCH, c, "%s", msg);
    *writer = 1;
    return IC_V_MISMATCH;
}

int ic_shared_rank(const int32_t *a, int na, const int32_t *b, int nb)
{
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if (a[i] == b[j] && a[i] != MPI_UNDEFINED)
                return a[i];
    return -1;
}
