/* EXPECT: potential-deadlock  NP: 2  MODE: strict  TIMEOUT: 600  ONLY: yes  RANKS: 0,1  SAYS: complete+only+once+every+member */
/*
 * Checks: strict mode's model of synchronous sends across a blocking
 * collective (docs/design.md, "Sends let go without their acknowledgment";
 * src/p2p/synccoll.c). Rank 0 sends one int to rank 1, then calls
 * MPI_Barrier; rank 1 computes for a second, calls MPI_Barrier, then
 * receives rank 0's message.
 *
 * Why a warning: with MPI_Ssend semantics rank 0's send completes only
 * once rank 1 posts its receive, which rank 1 does only after the barrier,
 * which rank 0 enters only after its send: a correct program must not
 * deadlock whether or not a collective synchronizes (MPI-4.0 sec. 6.14).
 * MPI buffers the small message, so the program completes.
 *
 * How this fails without the collective in the model: rank 0's send waits
 * for its receive while rank 1 computes; the early probe finds rank 1
 * computing and lets the send go; both ranks pass the barrier and the
 * receive takes the message, unseen. The timeout is 600 s and every run
 * is killed after 120 s, so only the model's verdict passes. On a machine
 * so loaded that rank 0's early probe runs only after rank 1 has woken and
 * entered the barrier, the early probe reports the cycle itself (another
 * wording): that run fails the SAYS check, a false alarm of the test, not
 * of the checker. Two barriers first: under tests/hs_p2p.sh the barrier
 * that matters then runs by point-to-point, the other way of handshakes.
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, out = 7, in = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Send(&out, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        sleep(1);           /* computing: rank 0's send is let go */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return rank == 0 || in == 7 ? 0 : 1;
}
