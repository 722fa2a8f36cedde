/*
 * probe.c - the engine's receive calls (MPI_Recv, MPI_Irecv, MPI_Recv_init)
 * and probes (MPI_Probe, MPI_Iprobe, MPI_Mprobe, MPI_Improbe, MPI_Mrecv,
 * MPI_Imrecv).
 *
 * A probe looks at the shadow first: the envelope it finds names the source
 * and tag, and the real probe is then asked for exactly that message (for
 * MPI_ANY_SOURCE, the same forcing as receives). MPI_Mprobe takes the
 * envelope off the shadow with the message; MPI_Mrecv checks it.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "p2p.h"
#include "skipped.h"
#include "p2p_internal.h"
#include "mc_pmpi_count.h"
#include "state.h"

int mc_recv_blocking(mc_call *c, void *buf, MPI_Count count, MPI_Datatype t, int source, int tag,
                     MPI_Comm comm, MPI_Status *status)
{
    mc_eng_lock();
    mc_pcomm *pc = source == MPI_PROC_NULL ? NULL : mc_pcomm_get(comm);
    if (!pc) {
        mc_eng_unlock();
        return mc_pmpi_Recv(buf, count, t, source, tag, comm, status);
    }
    mc_prec p;
    memset(&p, 0, sizeof p);
    p.real = p.mirror = p.user = MPI_REQUEST_NULL;
    int rc = mc_recv_post(c, pc, buf, count, t, source, tag, &p);
    if (rc == MPI_SUCCESS) {
        mc_eng_wait_prec(c, &p);
        rc = PMPI_Wait(&p.real, status);
        if (rc == MPI_SUCCESS) {
            mc_bufwatch_recv_wrote(&p);
            mc_sync_completed(&p, 0);
        }
    }
    mc_eng_unlock();
    return rc;
}

int mc_recv_nonblocking(mc_call *c, void *buf, MPI_Count count, MPI_Datatype t, int source, int tag,
                        MPI_Comm comm, MPI_Request *req)
{
    mc_eng_lock();
    mc_pcomm *pc = source == MPI_PROC_NULL ? NULL : mc_pcomm_get(comm);
    mc_prec *p = pc ? mc_prec_alloc() : NULL;
    if (!p) {
        mc_eng_unlock();
        return mc_pmpi_Irecv(buf, count, t, source, tag, comm, req);
    }
    int rc = mc_recv_post(c, pc, buf, count, t, source, tag, p);
    if (rc == MPI_SUCCESS)
        mc_bufwatch_overlap(c, p);
    if (rc != MPI_SUCCESS) {
        if (p->deferred) {
            p->cancelled = 1;       /* left in the queue, skipped there */
            mc_recv_queue_changed();
        } else {
            mc_prec_free(p);
        }
    } else if (p->deferred) {
        /* The application needs a handle now; MPI gets the receive later. */
        MPI_Request g;
        rc = mc_recv_greq_start(p, &g);
        p->greq = 1;
        *req = g;
        mc_prec_insert(p, g, c);
    } else {
        *req = p->real;
        mc_prec_insert(p, p->real, c);
    }
    mc_eng_unlock();
    return rc;
}

int mc_recv_init(mc_call *c, void *buf, MPI_Count count, MPI_Datatype t, int source, int tag,
                 MPI_Comm comm, MPI_Request *req, int rc)
{
    return mc_persistent_init(c, MC_PR_RECV, 0, buf, count, t, source, tag, comm, req, rc);
}

/* ---- probes --------------------------------------------------------------- */

typedef struct {
    mc_pcomm *pc;
    int source, tag;
    MPI_Status st;
} probe_ctx;

static int probe_ready(void *ctx)
{
    probe_ctx *p = ctx;
    int flag = 0;
    mc_recv_drive();
    PMPI_Iprobe(p->source, p->tag, p->pc->shadow, &flag, &p->st);
    if (flag)
        mc_recv_drive();    /* a deferred receive's message must reach MPI before the real probe */
    return flag;
}

static void probe_describe(void *ctx, mc_waitfor *w, int and_mode)
{
    probe_ctx *p = ctx;
    mc_waitfor_clause(w);
    mc_waitfor_add_comm(w, p->pc, p->source);
}

/* Message handles from MPI_(I)mprobe and the envelopes that came with them. */
typedef struct {
    mc_obj_key key;
    MPI_Comm comm;
    int source;
    mc_env env;
    UT_hash_handle hh;
} msg_entry;
static msg_entry *msgs;

static void take_envelope(probe_ctx *p, MPI_Message msg)
{
    msg_entry *m = mc_calloc(1, sizeof *m);
    mc_env tmp, *e = m ? &m->env : &tmp;
    PMPI_Recv(e, (int)sizeof *e, MPI_BYTE, p->st.MPI_SOURCE, p->st.MPI_TAG, p->pc->shadow, MPI_STATUS_IGNORE);
    mc_env_received++;
    if (e->magic == MC_ENV_MAGIC && (e->flags & MC_ENV_OFF))
        mc_sync_wildcard();     /* from a rank the model no longer follows (syncmodel.c) */
    mc_notice_mprobed(p->pc, p->st.MPI_SOURCE, p->st.MPI_TAG);
    if (!m || msg == MPI_MESSAGE_NULL || msg == MPI_MESSAGE_NO_PROC) {
        free(m);
        return;
    }
    m->key = mc_key(MC_KEY_MSG, MC_BITS(msg));
    m->comm = p->pc->comm;
    m->source = p->st.MPI_SOURCE;
    msg_entry *old = NULL;
    HASH_FIND(hh, msgs, &m->key, sizeof m->key, old);
    if (old) {
        HASH_DEL(msgs, old);
        free(old);
    }
    HASH_ADD(hh, msgs, key, sizeof m->key, m);
}

int mc_probe(mc_call *c, int source, int tag, MPI_Comm comm, MPI_Status *status, MPI_Message *msg)
{
    mc_eng_lock();
    mc_pcomm *pc = source == MPI_PROC_NULL ? NULL : mc_pcomm_get(comm);
    if (!pc) {
        mc_eng_unlock();
        return msg ? PMPI_Mprobe(source, tag, comm, msg, status) : PMPI_Probe(source, tag, comm, status);
    }
    if (source == MPI_ANY_SOURCE)
        mc_sync_wildcard();
    probe_ctx p = {.pc = pc, .source = source, .tag = tag};
    mc_eng_wait(c, probe_ready, probe_describe, &p);
    int rc;
    if (msg) {
        rc = PMPI_Mprobe(p.st.MPI_SOURCE, p.st.MPI_TAG, comm, msg, status);
        if (rc == MPI_SUCCESS)
            take_envelope(&p, *msg);
    } else {
        rc = PMPI_Probe(p.st.MPI_SOURCE, p.st.MPI_TAG, comm, status);
        /* The message's tag and size tell the program something before
         * its receive, and whether it came from a rank the model of
         * synchronous sends no longer follows (MC_ENV_OFF) only its
         * envelope says, which stays on the shadow for the receive: this
         * rank is followed no further. */
        if (rc == MPI_SUCCESS)
            mc_sync_wildcard();
    }
    mc_eng_unlock();
    return rc;
}

int mc_iprobe(mc_call *c, int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status,
              MPI_Message *msg)
{
    mc_eng_lock();
    mc_pcomm *pc = source == MPI_PROC_NULL ? NULL : mc_pcomm_get(comm);
    if (!pc) {
        mc_eng_unlock();
        return msg ? PMPI_Improbe(source, tag, comm, flag, msg, status)
                   : PMPI_Iprobe(source, tag, comm, flag, status);
    }
    mc_eng_service();
    if (source == MPI_ANY_SOURCE)
        mc_sync_wildcard();
    probe_ctx p = {.pc = pc, .source = source, .tag = tag};
    int rc = MPI_SUCCESS;
    if (probe_ready(&p)) {
        if (msg) {
            rc = PMPI_Improbe(p.st.MPI_SOURCE, p.st.MPI_TAG, comm, flag, msg, status);
            if (rc == MPI_SUCCESS && *flag)
                take_envelope(&p, *msg);
        } else {
            rc = PMPI_Iprobe(p.st.MPI_SOURCE, p.st.MPI_TAG, comm, flag, status);
        }
        /* A message found now may be one that, with synchronous sends, would
         * not exist yet (its sender sent it past a send let go), and the
         * program may choose its path by it: the model of synchronous sends
         * follows this rank no further (the envelope, which would say, stays
         * on the shadow for the receive). */
        if (rc == MPI_SUCCESS && *flag)
            mc_sync_wildcard();
    } else {
        /* The message may already be at MPI, its envelope not yet: "not
         * yet" is a legal answer, and the next probe will see both. */
        *flag = 0;
    }
    mc_eng_unlock();
    return rc;
}

/* MPI_Mrecv / MPI_Imrecv: the envelope taken at the mprobe is checked now. */
void mc_mrecv_check(mc_call *c, void *buf, MPI_Count count, MPI_Datatype t, MPI_Message *message)
{
    if (!message || *message == MPI_MESSAGE_NULL || *message == MPI_MESSAGE_NO_PROC || !msgs)
        return;
    mc_eng_lock();
    mc_obj_key key = mc_key(MC_KEY_MSG, MC_BITS(*message));
    msg_entry *m = NULL;
    HASH_FIND(hh, msgs, &key, sizeof key, m);
    if (m) {
        HASH_DEL(msgs, m);
        mc_env_check(&m->env, NULL, c, m->comm, m->source, t, count);
        free(m);
    }
    mc_eng_unlock();
}
