/* EXPECT: request-free-active  NP: 2  ONLY: yes */
/*
 * Checks: a send whose request was freed, rewritten only once its message
 * has been received, raises nothing. LAMMPS does this in
 * Irregular::create_atom (every rebalancing step): each rank tells its
 * partners how much it will send with MPI_Isend of one int and
 * MPI_Request_free ("non-blocking send to avoid possible deadlock"),
 * receives the partners' counts with MPI_Recv from MPI_ANY_SOURCE, and
 * meets them in an MPI_Barrier, which returns only after every rank has
 * received what was sent to it; the ints are rewritten after that. The
 * checker follows a freed send until MPI finishes it and compares the
 * buffer then; it looked next only at the next point-to-point call, after
 * the program had rewritten the buffer, and reported a false
 * buffer-modified error in strict mode (LAMMPS's examples/balance, two to
 * nineteen times a run). 50 rounds, the buffer rewritten right after the
 * barrier in each.
 *
 * Why it is correct: the barrier returns on a rank only after every rank
 * has entered it, so after each partner's MPI_Recv of the count completed:
 * the data has been delivered, and nothing MPI does later reads the send
 * buffer (MPI-4.0 sec. 3.7.3 lets a freed request's operation complete on
 * its own; sec. 6.3: MPI_Barrier returns only after all members entered).
 */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 50

int main(int argc, char **argv)
{
    int rank, size, count = 0, got = -1, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = (rank + 1) % size;
    for (int round = 0; round < ROUNDS; round++) {
        MPI_Request r;
        MPI_Status st;
        count = round * 10 + rank;
        MPI_Isend(&count, 1, MPI_INT, partner, 0, MPI_COMM_WORLD, &r);
        MPI_Request_free(&r);
        MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
        if (got != round * 10 + st.MPI_SOURCE)
            errors++;
        MPI_Barrier(MPI_COMM_WORLD);
        count = -1;     /* rewritten: the message has been received */
    }
    if (rank == 0 && errors == 0)
        printf("No Errors\n");
    MPI_Finalize();
    return errors != 0;
}
