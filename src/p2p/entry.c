/*
 * entry.c - the engine's entry points, one per `!engine` function of
 * wrappers/mpi.protos; the generated wrapper calls mc_eng_<name> instead of
 * PMPI_<name> while the engine is on (prototypes: mc_eng_protos.h, generated
 * from mpi.h's own declarations, so these definitions are type-checked
 * against the MPI library). Each forwards to the family's implementation;
 * the large-count (_c) forms share it with MPI_Count counts.
 */
#include "p2p.h"
#include "p2p_internal.h"
#include "hooks.h"
#include "mc_eng_protos.h"

/* ---- sends ---------------------------------------------------------------- */

#define BLOCKING_SEND(NAME, CT, MODE) \
    int mc_eng_MPI_##NAME(mc_call *c, const void *buf, CT count, MPI_Datatype datatype, int dest, \
                          int tag, MPI_Comm comm) \
    { return mc_send_blocking(c, MODE, buf, count, datatype, dest, tag, comm); }
#define NONBLOCKING_SEND(NAME, CT, MODE) \
    int mc_eng_MPI_##NAME(mc_call *c, const void *buf, CT count, MPI_Datatype datatype, int dest, \
                          int tag, MPI_Comm comm, MPI_Request *request) \
    { return mc_send_nonblocking(c, MODE, buf, count, datatype, dest, tag, comm, request); }
#define PERSISTENT_SEND(NAME, CT, MODE) \
    int mc_eng_MPI_##NAME(mc_call *c, const void *buf, CT count, MPI_Datatype datatype, int dest, \
                          int tag, MPI_Comm comm, MPI_Request *request) \
    { \
        int rc = PMPI_##NAME(buf, count, datatype, dest, tag, comm, request); \
        return mc_send_init(c, MODE, buf, count, datatype, dest, tag, comm, request, rc); \
    }

#define SEND_FAMILY(SFX, CT) \
    BLOCKING_SEND(Send##SFX, CT, MC_SEND_STANDARD) \
    BLOCKING_SEND(Ssend##SFX, CT, MC_SEND_SYNC) \
    BLOCKING_SEND(Rsend##SFX, CT, MC_SEND_READY) \
    BLOCKING_SEND(Bsend##SFX, CT, MC_SEND_BUFFERED) \
    NONBLOCKING_SEND(Isend##SFX, CT, MC_SEND_STANDARD) \
    NONBLOCKING_SEND(Issend##SFX, CT, MC_SEND_SYNC) \
    NONBLOCKING_SEND(Irsend##SFX, CT, MC_SEND_READY) \
    NONBLOCKING_SEND(Ibsend##SFX, CT, MC_SEND_BUFFERED) \
    PERSISTENT_SEND(Send_init##SFX, CT, MC_SEND_STANDARD) \
    PERSISTENT_SEND(Ssend_init##SFX, CT, MC_SEND_SYNC) \
    PERSISTENT_SEND(Rsend_init##SFX, CT, MC_SEND_READY) \
    PERSISTENT_SEND(Bsend_init##SFX, CT, MC_SEND_BUFFERED)

/* ---- receives and probes ---------------------------------------------------- */

#define RECV_FAMILY(SFX, CT) \
    int mc_eng_MPI_Recv##SFX(mc_call *c, void *buf, CT count, MPI_Datatype datatype, int source, \
                             int tag, MPI_Comm comm, MPI_Status *status) \
    { return mc_recv_blocking(c, buf, count, datatype, source, tag, comm, status); } \
    int mc_eng_MPI_Irecv##SFX(mc_call *c, void *buf, CT count, MPI_Datatype datatype, int source, \
                              int tag, MPI_Comm comm, MPI_Request *request) \
    { return mc_recv_nonblocking(c, buf, count, datatype, source, tag, comm, request); } \
    int mc_eng_MPI_Recv_init##SFX(mc_call *c, void *buf, CT count, MPI_Datatype datatype, int source, \
                                  int tag, MPI_Comm comm, MPI_Request *request) \
    { \
        int rc = PMPI_Recv_init##SFX(buf, count, datatype, source, tag, comm, request); \
        return mc_recv_init(c, buf, count, datatype, source, tag, comm, request, rc); \
    } \
    int mc_eng_MPI_Mrecv##SFX(mc_call *c, void *buf, CT count, MPI_Datatype datatype, \
                              MPI_Message *message, MPI_Status *status) \
    { \
        mc_mrecv_check(c, buf, count, datatype, message); \
        return PMPI_Mrecv##SFX(buf, count, datatype, message, status); \
    } \
    int mc_eng_MPI_Imrecv##SFX(mc_call *c, void *buf, CT count, MPI_Datatype datatype, \
                               MPI_Message *message, MPI_Request *request) \
    { \
        mc_mrecv_check(c, buf, count, datatype, message); \
        return PMPI_Imrecv##SFX(buf, count, datatype, message, request); \
    } \
    int mc_eng_MPI_Sendrecv##SFX(mc_call *c, const void *sendbuf, CT sendcount, MPI_Datatype sendtype, \
                                 int dest, int sendtag, void *recvbuf, CT recvcount, \
                                 MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, \
                                 MPI_Status *status) \
    { \
        return mc_sendrecv(c, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, \
                           recvtype, source, recvtag, comm, status); \
    } \
    int mc_eng_MPI_Sendrecv_replace##SFX(mc_call *c, void *buf, CT count, MPI_Datatype datatype, \
                                         int dest, int sendtag, int source, int recvtag, \
                                         MPI_Comm comm, MPI_Status *status) \
    { \
        return mc_sendrecv_replace(c, buf, count, datatype, dest, sendtag, source, recvtag, comm, \
                                   status); \
    }

/* MPI-4.0's nonblocking send-receive (MPICH 4 has it; Open MPI 4.1 not). */
#define ISENDRECV_FAMILY(SFX, CT) \
    int mc_eng_MPI_Isendrecv##SFX(mc_call *c, const void *sendbuf, CT sendcount, \
                                  MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, \
                                  CT recvcount, MPI_Datatype recvtype, int source, int recvtag, \
                                  MPI_Comm comm, MPI_Request *request) \
    { \
        return mc_isendrecv(c, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, \
                            recvtype, source, recvtag, comm, request, 0); \
    } \
    int mc_eng_MPI_Isendrecv_replace##SFX(mc_call *c, void *buf, CT count, MPI_Datatype datatype, \
                                          int dest, int sendtag, int source, int recvtag, \
                                          MPI_Comm comm, MPI_Request *request) \
    { \
        return mc_isendrecv(c, buf, count, datatype, dest, sendtag, buf, count, datatype, source, \
                            recvtag, comm, request, 1); \
    }

SEND_FAMILY(, int)
RECV_FAMILY(, int)
#if MPI_VERSION >= 4
SEND_FAMILY(_c, MPI_Count)
RECV_FAMILY(_c, MPI_Count)
ISENDRECV_FAMILY(, int)
ISENDRECV_FAMILY(_c, MPI_Count)
#endif

int mc_eng_MPI_Probe(mc_call *c, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    return mc_probe(c, source, tag, comm, status, NULL);
}

int mc_eng_MPI_Mprobe(mc_call *c, int source, int tag, MPI_Comm comm, MPI_Message *message,
                      MPI_Status *status)
{
    return mc_probe(c, source, tag, comm, status, message);
}

int mc_eng_MPI_Iprobe(mc_call *c, int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    return mc_iprobe(c, source, tag, comm, flag, status, NULL);
}

int mc_eng_MPI_Improbe(mc_call *c, int source, int tag, MPI_Comm comm, int *flag,
                       MPI_Message *message, MPI_Status *status)
{
    return mc_iprobe(c, source, tag, comm, flag, status, message);
}

/* ---- starts and completions ------------------------------------------------- */

/* A test or a choice among requests that answered "this completed" (the
 * model of synchronous sends follows the rank no further: syncmodel.c,
 * mc_sync_looked). */
static int looked(int rc, int done)
{
    if (done && mc_eng_strict) {
        mc_eng_lock();
        mc_sync_looked();
        mc_eng_unlock();
    }
    return rc;
}

int mc_eng_MPI_Start(mc_call *c, MPI_Request *request)
{
    mc_eng_lock();
    int rc = mc_start_one(c, request);
    mc_eng_unlock();
    return rc;
}

/* MPI_Startall is MPI_Start of each, in order (MPI-4.0 3.9). */
int mc_eng_MPI_Startall(mc_call *c, int count, MPI_Request array_of_requests[])
{
    int rc = MPI_SUCCESS;
    mc_eng_lock();
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++)
        rc = mc_start_one(c, &array_of_requests[i]);
    mc_eng_unlock();
    return rc;
}

int mc_eng_MPI_Wait(mc_call *c, MPI_Request *request, MPI_Status *status)
{
    return mc_complete_wait(c, request, status);
}

int mc_eng_MPI_Waitall(mc_call *c, int count, MPI_Request array_of_requests[],
                       MPI_Status array_of_statuses[])
{
    return mc_complete_waitall(c, count, array_of_requests, array_of_statuses);
}

int mc_eng_MPI_Waitany(mc_call *c, int count, MPI_Request array_of_requests[], int *index,
                       MPI_Status *status)
{
    int rc = mc_complete_any(c, count, array_of_requests, index, NULL, status, 1);
    return looked(rc, rc == MPI_SUCCESS && *index != MPI_UNDEFINED);
}

int mc_eng_MPI_Waitsome(mc_call *c, int incount, MPI_Request array_of_requests[], int *outcount,
                        int array_of_indices[], MPI_Status array_of_statuses[])
{
    int rc = mc_complete_some(c, incount, array_of_requests, outcount, array_of_indices,
                              array_of_statuses, 1);
    return looked(rc, (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && *outcount != MPI_UNDEFINED && *outcount > 0);
}

int mc_eng_MPI_Test(mc_call *c, MPI_Request *request, int *flag, MPI_Status *status)
{
    /* A poll that found nothing (runtime/poll.c) is answered here, before
     * the completion's machinery and its frame. */
    if (c->polled)
        return mc_eng_polled_answer(c);
    int rc = mc_complete_test(c, request, flag, status);
    return looked(rc, rc == MPI_SUCCESS && *flag);
}

int mc_eng_MPI_Testall(mc_call *c, int count, MPI_Request array_of_requests[], int *flag,
                       MPI_Status array_of_statuses[])
{
    if (c->polled)
        return mc_eng_polled_answer(c);
    int rc = mc_complete_testall(c, count, array_of_requests, flag, array_of_statuses);
    return looked(rc, rc == MPI_SUCCESS && *flag);
}

int mc_eng_MPI_Testany(mc_call *c, int count, MPI_Request array_of_requests[], int *index,
                       int *flag, MPI_Status *status)
{
    if (c->polled)
        return mc_eng_polled_answer(c);
    int rc = mc_complete_any(c, count, array_of_requests, index, flag, status, 0);
    return looked(rc, rc == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED);
}

int mc_eng_MPI_Testsome(mc_call *c, int incount, MPI_Request array_of_requests[], int *outcount,
                        int array_of_indices[], MPI_Status array_of_statuses[])
{
    if (c->polled)
        return mc_eng_polled_answer(c);
    int rc = mc_complete_some(c, incount, array_of_requests, outcount, array_of_indices,
                              array_of_statuses, 0);
    return looked(rc, (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && *outcount != MPI_UNDEFINED && *outcount > 0);
}

int mc_eng_MPI_Request_get_status(mc_call *c, MPI_Request request, int *flag, MPI_Status *status)
{
    int rc = mc_complete_get_status(c, request, flag, status);
    return looked(rc, rc == MPI_SUCCESS && *flag);
}

int mc_eng_MPI_Cancel(mc_call *c, MPI_Request *request)
{
    return mc_complete_cancel(c, request);
}

int mc_eng_MPI_Request_free(mc_call *c, MPI_Request *request)
{
    return mc_complete_free(c, request);
}

void mc_p2p_register(void)
{
    mc_p2p_hook = (mc_p2p_hooks){
        .prec_progress = mc_prec_progress,
        .recv_drive = mc_recv_drive,
        .recv_pending_deferred = mc_recv_pending_deferred,
        .recv_cancel = mc_recv_cancel,
        .recv_comm_freeing = mc_recv_comm_freeing,
        .env_reap = mc_env_reap,
        .env_release = mc_env_release,
        .env_slot_done = mc_env_slot_done,
        .env_unacked = mc_env_unacked,
        .completed = mc_sync_completed,
        .sync_off = mc_sync_looked,
        .coll_deps_enter = mc_sync_coll_enter,
        .coll_deps_start = mc_sync_coll_start,
        .coll_deps_end = mc_sync_coll_end,
        .lost_report = mc_lost_report,
    };
}

const mc_module mc_p2p_module = {
    .name = "p2p",
    .load = mc_p2p_register,
};
