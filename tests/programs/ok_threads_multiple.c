/* EXPECT: OK  NP: 2  TIMEOUT: 10 */
/*
 * Checks: MPI_THREAD_MULTIPLE with 4 threads per rank calling MPI at the same
 * time; no finding, crash or hang expected.
 *
 *  - every thread exchanges messages with its twin thread on the other rank
 *    over one shared duplicated communicator (distinct tags per thread, so
 *    matching is deterministic) with Isend/Irecv/Waitall, Test loops and
 *    persistent requests;
 *  - every thread also owns a private duplicated communicator (created by the
 *    main thread) on which it runs collectives and a Comm_dup/Comm_free of its
 *    own: collectives on different communicators from different threads are
 *    legal (MPI-4.0 sec. 11.6.2), and each communicator's collectives are
 *    issued by one thread per rank in the same order;
 *  - threads create, commit and free datatypes and query Comm_rank/Comm_size
 *    concurrently;
 *  - requests started by the main thread are completed by a worker thread.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define NT 4
#define ITERS 100

static int rank, peer;
static MPI_Comm shared_comm, own_comm[NT];
static int fails[NT];
static MPI_Request handoff[2];
static int handoff_in, handoff_out;

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    int *nfail = &fails[t];
    MPI_Status sts[2];
    for (int it = 0; it < ITERS; it++) {
        int out[4] = {rank, t, it, 1}, in[4] = {-1, -1, -1, -1}, r, s;
        MPI_Request rq[2];
        MPI_Comm_rank(shared_comm, &r);
        MPI_Comm_size(shared_comm, &s);
        if (r != rank || s != 2)
            (*nfail)++;
        MPI_Irecv(in, 4, MPI_INT, peer, t, shared_comm, &rq[0]);
        MPI_Isend(out, 4, MPI_INT, peer, t, shared_comm, &rq[1]);
        if (it % 2) {
            MPI_Waitall(2, rq, sts);
        } else {
            int flag = 0;
            while (!flag)
                MPI_Testall(2, rq, &flag, sts);
        }
        if (in[0] != peer || in[1] != t || in[2] != it)
            (*nfail)++;
        if (it % 10 == 0) {
            MPI_Datatype dt;
            MPI_Type_vector(2, 1, 2, MPI_INT, &dt);
            MPI_Type_commit(&dt);
            int a[3] = {it, 0, t}, b[2] = {0, 0};
            /* a tag per thread: the threads share MPI_COMM_SELF */
            MPI_Sendrecv(a, 1, dt, 0, 200 + t, b, 2, MPI_INT, 0, 200 + t, MPI_COMM_SELF, MPI_STATUS_IGNORE);
            if (b[0] != it || b[1] != t)
                (*nfail)++;
            MPI_Type_free(&dt);
        }
    }

    /* persistent requests, restarted */
    int pin = -1, pout = 0;
    MPI_Request pr[2];
    MPI_Recv_init(&pin, 1, MPI_INT, peer, 100 + t, shared_comm, &pr[0]);
    MPI_Send_init(&pout, 1, MPI_INT, peer, 100 + t, shared_comm, &pr[1]);
    for (int it = 0; it < 20; it++) {
        pout = 1000 * t + it;
        MPI_Startall(2, pr);
        MPI_Waitall(2, pr, sts);
        if (pin != 1000 * t + it)
            (*nfail)++;
    }
    MPI_Request_free(&pr[0]);
    MPI_Request_free(&pr[1]);

    /* collectives and a dup on this thread's own communicator */
    MPI_Comm mine;
    MPI_Comm_dup(own_comm[t], &mine);
    for (int it = 0; it < 10; it++) {
        int v = t + it, sum = 0;
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, mine);
        if (sum != 2 * v)
            (*nfail)++;
        MPI_Request br;
        MPI_Ibarrier(own_comm[t], &br);
        MPI_Wait(&br, MPI_STATUS_IGNORE);
    }
    MPI_Comm_free(&mine);

    /* thread 0 completes the requests the main thread started */
    if (t == 0) {
        MPI_Waitall(2, handoff, sts);
        if (handoff_in != 4242)
            (*nfail)++;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;
    int total = 0;
    if (provided < MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            printf("ok_threads_multiple: MPI_THREAD_MULTIPLE not provided (%d), threads skipped\n", provided);
    } else {
        int is_main;
        MPI_Query_thread(&provided);
        MPI_Is_thread_main(&is_main);
        if (provided != MPI_THREAD_MULTIPLE || !is_main)
            total++;
        MPI_Comm_dup(MPI_COMM_WORLD, &shared_comm);
        for (int t = 0; t < NT; t++)
            MPI_Comm_dup(MPI_COMM_WORLD, &own_comm[t]);
        handoff_out = 4242;
        MPI_Irecv(&handoff_in, 1, MPI_INT, peer, 500, shared_comm, &handoff[0]);
        MPI_Isend(&handoff_out, 1, MPI_INT, peer, 500, shared_comm, &handoff[1]);

        pthread_t th[NT];
        for (int t = 0; t < NT; t++)
            pthread_create(&th[t], NULL, worker, (void *)(long)t);
        /* the main thread keeps querying meanwhile */
        for (int i = 0; i < 1000; i++) {
            int r;
            MPI_Comm_rank(MPI_COMM_WORLD, &r);
        }
        for (int t = 0; t < NT; t++) {
            pthread_join(th[t], NULL);
            total += fails[t];
        }
        for (int t = 0; t < NT; t++)
            MPI_Comm_free(&own_comm[t]);
        MPI_Comm_free(&shared_comm);
    }
    int all;
    MPI_Allreduce(&total, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all)
        printf("ok_threads_multiple: %d checks failed\n", all);
    MPI_Finalize();
    return all != 0;
}
