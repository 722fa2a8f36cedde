/*
 * notice.c - strict mode's early acknowledgments: a receiver tells a
 * sender "the receive of your k-th message with tag t on this communicator
 * is posted" when it posts the receive, so that the sender's strict wait
 * ends without the receiver having to run again.
 *
 * Strict mode gives a standard send MPI_Ssend's semantics: its envelope
 * goes by MPI_Issend, which completes once the receive's mirror has taken
 * it. That completion needs the receiver's MPI to run after the envelope
 * arrived: a receiver that posted its receive and then computes, or that
 * the operating system does not schedule (more ranks than cores), holds
 * the sender although the receive it waits for is there (MPICH's
 * pt2pt/sendflood, eight ranks on two cores: 5x slower in strict mode than
 * plainly, 1.6x in fast mode). A notice sent when the receive is posted
 * says the same as the Issend's completion, earlier.
 *
 * Why a notice names the right send. Every receive posts a mirror on the
 * shadow with its own source and tag, and every send an envelope there
 * with its own tag, in the same order as the real operations (both under
 * the engine lock). MPI matches mirrors with envelopes by its own rules:
 * while every mirror a rank posted on a communicator had a specific source
 * and tag, non-overtaking gives the k-th mirror for (source s, tag t) the
 * k-th envelope s sent with tag t. So each side counts: the sender its
 * envelopes per (communicator, destination, tag), the receiver its
 * mirrors per (communicator, source, tag), both from the communicator's
 * start, and a notice carries the receiver's count.
 * - A wildcard mirror (MPI_ANY_SOURCE or MPI_ANY_TAG) may take any of the
 *   counted envelopes: from then on the receiver sends no notice on that
 *   communicator (pc->notices_off) (the notices sent before stay true: those mirrors were
 *   posted first and take their envelopes first).
 * - An envelope taken by MPI_Mprobe/MPI_Improbe counts as a mirror.
 * - A cancelled receive: its mirror is gone, later mirrors take earlier
 *   envelopes than counted, so notices stop on that communicator; one sent
 *   for the cancelled receive itself (or for one posted after it, before
 *   the cancel) may have let a send go that a later receive takes: a
 *   potential deadlock through it can be missed.
 * - A cancelled send: later envelopes are matched by earlier mirrors than
 *   their numbers say, so notices come late, never early: nothing to do.
 * Counts are kept per tag for the first MC_NOTICE_TAGS tags a pair of
 * ranks uses on a communicator; a tag first used once that table is full
 * gets no notices (both sides decide alike: a tag has a counter only if it
 * got one at its first use), so a program that makes a new tag per
 * message costs no memory per tag.
 *
 * Only where the counting is exact and the peer's world rank is known:
 * intracommunicators of this job with an agreed id (pc->cid). Counting
 * runs whenever strict mode was asked for (the counts must start with the
 * communicator); notices are sent only while strict mode is on.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "p2p.h"        /* uthash, with the object table's hash of two 64-bit words */
#include "p2p_internal.h"
#include "siteset.h"
#include "skipped.h"
#include "state.h"

#define MC_NOTICE_TAGS 8
#define MC_NOTICE_MAX_INFLIGHT 4096
#define MC_NOTICE_AWAY_S 0.001

typedef struct {
    uint64_t cid;
    int64_t peer;       /* the other rank, in the communicator */
} peer_key;

typedef struct {
    peer_key key;
    int ntags;
    int tags[MC_NOTICE_TAGS];
    uint64_t sent[MC_NOTICE_TAGS];      /* envelopes this rank sent to peer */
    uint64_t noticed[MC_NOTICE_TAGS];   /* the highest count peer's notices named */
    uint64_t posted[MC_NOTICE_TAGS];    /* mirrors this rank posted for peer's messages */
    UT_hash_handle hh;
} peer_rec;

typedef struct {        /* on the wire */
    uint64_t cid;
    int64_t rank;       /* the receiver, in the communicator */
    int64_t tag;
    uint64_t k;
} notice_msg;

typedef struct notice_out {
    MPI_Request req;
    notice_msg msg;
    struct notice_out *next;
} notice_out;

static peer_rec *peers;
static mc_siteset away_sites;       /* receive call sites whose receives wait while the program computes */
static notice_out *inflight, *spare;
static int ninflight;

static int eligible(const mc_pcomm *pc)
{
    return mc_eng_strict && pc->cid && !pc->is_inter && !pc->spans_worlds
        && mc_st.world_dup != MPI_COMM_NULL;
}

static peer_key key_of(uint64_t cid, int peer)
{
    peer_key key;
    memset(&key, 0, sizeof key);
    key.cid = cid;
    key.peer = peer;
    return key;
}

static peer_rec *peer_of(uint64_t cid, int peer, int create)
{
    peer_key key = key_of(cid, peer);
    peer_rec *r = NULL;
    HASH_FIND(hh, peers, &key, sizeof key, r);
    if (!r && create && (r = mc_calloc(1, sizeof *r))) {
        r->key = key;
        HASH_ADD(hh, peers, key, sizeof r->key, r);
    }
    return r;
}

/* The counter of tag in r; a new one only while the table has room. */
static int tag_index(peer_rec *r, int tag)
{
    for (int i = 0; i < r->ntags; i++)
        if (r->tags[i] == tag)
            return i;
    if (r->ntags == MC_NOTICE_TAGS)
        return -1;
    r->tags[r->ntags] = tag;
    return r->ntags++;
}

void mc_notice_sent(mc_pcomm *pc, int dest, int tag, mc_env_slot *s)
{
    if (s)
        s->notice_k = 0;
    if (!eligible(pc))
        return;
    peer_rec *r = peer_of(pc->cid, dest, 1);
    int i = r ? tag_index(r, tag) : -1;
    if (i < 0)
        return;
    r->sent[i]++;
    if (s) {
        s->notice_cid = pc->cid;
        s->notice_peer = dest;
        s->notice_tag = tag;
        s->notice_k = r->sent[i];
    }
}

static void reap_out(void)
{
    notice_out **pp = &inflight;
    while (*pp) {
        notice_out *o = *pp;
        int flag = 0;
        PMPI_Test(&o->req, &flag, MPI_STATUS_IGNORE);
        if (flag) {
            *pp = o->next;
            o->next = spare;
            spare = o;
            ninflight--;
        } else {
            pp = &o->next;
        }
    }
}

void mc_notice_comm_off(mc_pcomm *pc)
{
    pc->notices_off = 1;
}

void mc_notice_posted(mc_pcomm *pc, mc_prec *p, int blocking)
{
    int source = p->peer, tag = p->tag;
    if (!eligible(pc) || pc->notices_off)
        return;
    if (source < 0 || tag < 0) {
        pc->notices_off = 1;
        return;
    }
    peer_rec *r = peer_of(pc->cid, source, 1);
    int i = r ? tag_index(r, tag) : -1;
    if (i < 0)
        return;
    uint64_t k = ++r->posted[i];
    /* No notice where MPI's own acknowledgment comes as soon: a blocking
     * receive keeps this rank in MPI, progressing, until its message has
     * come; a message from this rank itself is acknowledged by its own
     * next progress. */
    if (blocking || !mc_eng_strict_now() || p->mirror == MPI_REQUEST_NULL)
        return;
    int dest = mc_pcomm_world_rank(pc, source);
    if (dest < 0 || dest == mc_st.world_rank)
        return;
    /* Nor from a call site whose receives the program has not yet left
     * waiting while it was away from MPI: a window of receives posted
     * just before their waits (a halo exchange, a message-rate loop)
     * would pay a message per message for nothing (a notice costs about
     * 2,400 instructions on both sides together, Open MPI, callgrind).
     * The first look at such a receive by a completion call decides
     * (mc_notice_first_look). */
    if (!mc_siteset_has(&away_sites, p->caller)) {
        p->posted_at = mc_eng_now();
        return;
    }
    /* Even when the envelope is already here (MPI then acknowledges at
     * once, and the notice is one message for nothing): asking MPI whether
     * the mirror has completed makes it progress inside this MPI_Irecv,
     * and with single-copy transfers that did every incoming large
     * message's copy there, before the program's own sends of the window
     * went out (two ranks exchanging 64 messages of 4 MiB: strict mode 1.7
     * times fast mode's time, docs/performance.md). */
    if (ninflight >= 64)
        reap_out();
    if (ninflight >= MC_NOTICE_MAX_INFLIGHT)
        return;     /* a notice is never needed: the Issend still says it */
    notice_out *o = spare;
    if (o)
        spare = o->next;
    else if (!(o = mc_malloc(sizeof *o)))
        return;
    o->msg.cid = pc->cid;
    o->msg.rank = pc->rank;
    o->msg.tag = tag;
    o->msg.k = k;
    if (PMPI_Isend(&o->msg, (int)sizeof o->msg, MPI_BYTE, dest, MC_WTAG_NOTICE, mc_st.world_dup,
                   &o->req) != MPI_SUCCESS) {
        o->next = spare;
        spare = o;
        return;
    }
    mc_env_sent++;      /* counted with the envelopes: MPI_Finalize drains both */
    o->next = inflight;
    inflight = o;
    ninflight++;
}

/* A receive its program first looked at (MPI_Wait, MPI_Test...) more than
 * MC_NOTICE_AWAY_S after posting it: the program computed meanwhile, and
 * a strict sender to it would have waited; the site's later receives
 * send notices. */
void mc_notice_first_look(mc_prec *p)
{
    if (mc_eng_now() - p->posted_at > MC_NOTICE_AWAY_S)
        mc_siteset_add(&away_sites, p->caller);
    p->posted_at = 0.0;
}

void mc_notice_mprobed(mc_pcomm *pc, int source, int tag)
{
    if (!eligible(pc))
        return;
    peer_rec *r = peer_of(pc->cid, source, 1);
    int i = r ? tag_index(r, tag) : -1;
    if (i >= 0)
        r->posted[i]++;
}

/* Takes in one message of the notices' tag from source (MPI_ANY_SOURCE:
 * any): 1 when there was one. */
static int take_one(int source)
{
    int flag = 0;
    MPI_Status st;
    if (PMPI_Iprobe(source, MC_WTAG_NOTICE, mc_st.world_dup, &flag, &st) != MPI_SUCCESS || !flag)
        return 0;
    /* Both kinds of notice come with this tag, told apart by size: a
     * posted receive (notice_msg), and the model of synchronous sends'
     * (syncmodel.c). */
    union {
        notice_msg m;
        unsigned char bytes[MC_SYNC_MSG_MAX];
    } in;
    int len = 0;
    memset(&in, 0, sizeof in);
    if (PMPI_Recv(&in, (int)sizeof in, MPI_BYTE, st.MPI_SOURCE, MC_WTAG_NOTICE, mc_st.world_dup,
                  &st) != MPI_SUCCESS)
        return 0;
    mc_env_received++;
    PMPI_Get_count(&st, MPI_BYTE, &len);
    if (len != (int)sizeof in.m) {
        mc_sync_notice(st.MPI_SOURCE, in.bytes, len);
        return 1;
    }
    notice_msg m = in.m;
    /* The peer may post its receive before this rank's first send to it. */
    peer_rec *r = peer_of(m.cid, (int)m.rank, 1);
    int i = r ? tag_index(r, (int)m.tag) : -1;
    if (i >= 0 && m.k > r->noticed[i])
        r->noticed[i] = m.k;
    return 1;
}

int mc_notice_take_from(int source)
{
    if (!mc_eng_strict || mc_st.world_dup == MPI_COMM_NULL)
        return 0;
    return take_one(source);
}

void mc_notice_intake(void)
{
    if (!mc_eng_strict || mc_st.world_dup == MPI_COMM_NULL)
        return;
    while (take_one(MPI_ANY_SOURCE))
        ;
    if (inflight)
        reap_out();
}

int mc_notice_acked(const mc_env_slot *s)
{
    if (!s->notice_k)
        return 0;
    mc_notice_intake();
    peer_rec *r = peer_of(s->notice_cid, s->notice_peer, 0);
    if (!r)
        return 0;
    for (int i = 0; i < r->ntags; i++)
        if (r->tags[i] == s->notice_tag)
            return r->noticed[i] >= s->notice_k;
    return 0;
}

void mc_notice_comm_freed(mc_pcomm *pc)
{
    if (!pc->cid || !peers)
        return;
    /* Its peers' counters: notices still coming for it find none and make
     * new ones, which no send of a freed communicator reads. */
    peer_rec *r, *tmp;
    HASH_ITER(hh, peers, r, tmp) {
        if (r->key.cid == pc->cid) {
            HASH_DEL(peers, r);
            free(r);
        }
    }
}
