/* EXPECT: OK  NP: 4  TIMEOUT: 10  FLAVOR: openmpi  SKIPPED: unchecked-communicator */
/*
 * Checks: four threads per process create communicators from
 * MPI_COMM_WORLD at once with MPI_Comm_create_group, told apart by their
 * tags (thread t uses tag t): first over processes 0 to 2 (process 3 does
 * not take part), then over all four; each thread runs an MPI_Barrier on
 * its new communicator and frees it, 60 times (the pattern of MPICH's
 * threads/comm/comm_create_group_threads2).
 *
 * Why it must finish silently: MPI_Comm_create_group is collective over the
 * group only, and concurrent calls on one parent are legal when their tags
 * differ (MPI-4.0 sec. 7.4.2). What went wrong with Open MPI: the checker
 * made each new communicator's shadow by a nonblocking MPI_Comm_idup,
 * waited for at its first use (the barrier). Open MPI 4.1 runs a
 * context-id agreement only when no agreement with a lower parent id is
 * pending in the process, and process 3's threads had agreements on
 * MPI_COMM_WORLD pending that processes 0 to 2 would join only after their
 * barriers: the job hung (5 of 6 runs of the MPICH test, every process's
 * threads in MPI_Barrier or MPI_Comm_create_group). Such communicators are
 * now left unchecked under MPI_THREAD_MULTIPLE with Open MPI, and the
 * report counts them as skipped (unchecked-communicator).
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define NT 4
#define ITERS 60

static int rank, size, fails;
static MPI_Group world_group;

static void *create_loop(void *arg)
{
    int tag = (int)(long)arg;
    int range[1][3] = {{0, size / 2 + (size > 2 ? 0 : -1), 1}};
    for (int i = 0; i < ITERS; i++) {
        MPI_Group part;
        MPI_Group_range_incl(world_group, 1, range, &part);
        int in_part = rank <= range[0][1];
        MPI_Comm comm;
        if (in_part) {
            MPI_Comm_create_group(MPI_COMM_WORLD, part, tag, &comm);
            MPI_Barrier(comm);
            MPI_Comm_free(&comm);
        }
        MPI_Group_free(&part);
        MPI_Comm_create_group(MPI_COMM_WORLD, world_group, tag, &comm);
        int n = 0;
        MPI_Comm_size(comm, &n);
        if (n != size)
            __atomic_add_fetch(&fails, 1, __ATOMIC_RELAXED);
        MPI_Barrier(comm);
        MPI_Comm_free(&comm);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "TEST FAILED: no MPI_THREAD_MULTIPLE\n");
        MPI_Finalize();
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    pthread_t th[NT];
    for (long t = 1; t < NT; t++)
        pthread_create(&th[t], NULL, create_loop, (void *)t);
    create_loop((void *)0L);
    for (int t = 1; t < NT; t++)
        pthread_join(th[t], NULL);
    MPI_Group_free(&world_group);
    if (fails)
        fprintf(stderr, "TEST FAILED: %d communicators of the wrong size\n", fails);
    MPI_Finalize();
    return fails != 0;
}
