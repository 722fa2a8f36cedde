/*
 * demo_bugs.c - a small MPI program with four everyday bugs, for trying
 * mpicheck out. Run it on 2 processes:
 *
 *     mpicc -g -O0 -o demo_bugs examples/demo_bugs.c
 *     mpicheck -- -np 2 ./demo_bugs          (Open MPI: add --oversubscribe
 *                                             after -- on a small machine)
 *
 * Expected report:
 *   ERROR   invalid-argument  MPI_Sendrecv uses the type `particle_type`,
 *                             which was never committed (bug 1)
 *   WARNING resource-leak     the communicator made by MPI_Comm_dup in
 *                             setup_library() is never freed (bug 2)
 *   ERROR   type-mismatch     the energy is sent as MPI_FLOAT and received
 *                             as MPI_DOUBLE: MPI delivers 4 bytes into an
 *                             8-byte double and says nothing (bug 4)
 *   WARNING request-leak      the MPI_Isend request of the "done" notice is
 *                             never waited for (bug 3)
 * and mpicheck exits with status 3 because of the error.
 *
 * The program asks MPI to return errors instead of aborting (as careful
 * programs that check return codes do), so the run continues past bug 1 and
 * all four bugs show up in one run.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    int id;
    double x, y;
} particle;

/* A "library" that keeps a private communicator, as libraries should... */
static MPI_Comm library_comm = MPI_COMM_NULL;

static void setup_library(void)
{
    MPI_Comm_dup(MPI_COMM_WORLD, &library_comm);
}

static double library_average(double value)
{
    double sum;
    int size;

    MPI_Comm_size(library_comm, &size);
    MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, library_comm);
    return sum / size;
}
/* ...but it has no teardown function: BUG 2, MPI_Comm_free(&library_comm)
 * is never called. */

int main(int argc, char **argv)
{
    int rank, other, rc, done = 1;
    particle mine, theirs;
    MPI_Datatype particle_type;
    MPI_Request done_request;
    int blocklens[2] = {1, 2};
    MPI_Aint displs[2] = {offsetof(particle, id), offsetof(particle, x)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;                       /* this demo runs on 2 processes */

    setup_library();

    /* Describe a particle to MPI... */
    MPI_Type_create_struct(2, blocklens, displs, types, &particle_type);
    /* BUG 1: MPI_Type_commit(&particle_type) is missing; a derived type must
     * be committed before it is used to communicate. */

    /* ...and swap particles with the other process. */
    mine.id = rank;
    mine.x = 1.0 + rank;
    mine.y = 2.0 * rank;
    rc = MPI_Sendrecv(&mine, 1, particle_type, other, 0,
                      &theirs, 1, particle_type, other, 0,
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(rc, msg, &len);
        fprintf(stderr, "rank %d: particle exchange failed: %s\n", rank, msg);
        theirs = mine;
    }

    printf("rank %d: average x = %g\n", rank, library_average(theirs.x));

    /* Rank 0 computes the energy, rank 1 prints it. */
    if (rank == 0) {
        float energy = 42.5f;
        MPI_Send(&energy, 1, MPI_FLOAT, 1, 2, MPI_COMM_WORLD);
    } else {
        double energy = 0;
        /* BUG 4: the sender sends an MPI_FLOAT; receiving it as MPI_DOUBLE
         * is a type mismatch that MPI does not detect (4 bytes land in an
         * 8-byte double: garbage, and no error). */
        MPI_Recv(&energy, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 1: energy = %g\n", energy);
    }

    /* Tell rank 1 that rank 0 is done. */
    if (rank == 0) {
        MPI_Isend(&done, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &done_request);
        /* BUG 3: MPI_Wait(&done_request, MPI_STATUS_IGNORE) is missing; the
         * request is never completed, and `done` must not be touched until
         * it is. */
    } else {
        MPI_Recv(&done, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }

    MPI_Type_free(&particle_type);
    MPI_Finalize();
    return 0;
}
