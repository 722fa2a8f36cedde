/* EXPECT: OK  NP: 3 */
/*
 * Checks: matched probes and probe-then-receive with wildcards, from two
 * senders. Ranks 1 and 2 each send 3 messages to rank 0 (message j: tag j,
 * j+1 ints). Rank 0 takes the 6 messages two by two: with MPI_Mprobe +
 * MPI_Mrecv, with an MPI_Improbe polling loop + MPI_Imrecv + MPI_Wait, and
 * with MPI_Probe followed by MPI_Recv of the probed source and tag, all
 * probes with MPI_ANY_SOURCE and MPI_ANY_TAG; the count sizes each receive.
 *
 * Why it is correct: a matched probe removes the message from matching, and
 * MPI_Mrecv/MPI_Imrecv receive exactly it (MPI-3.1 sec. 3.8.2, 3.8.3); after
 * MPI_Probe in a single-threaded process, a receive of the probed source and
 * tag gets the probed message (sec. 3.8.1). Every message is received once;
 * per sender they arrive in order (sec. 3.5), which the check relies on.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, j, k, m, src, count, flag, bad = 0, buf[4], next[3] = {0, 0, 0};
    MPI_Message msg;
    MPI_Request req;
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    if (rank == 1 || rank == 2) {
        for (j = 0; j < 3; j++) {
            for (k = 0; k <= j; k++)
                buf[k] = 100 * rank + 10 * j + k;
            MPI_Send(buf, j + 1, MPI_INT, 0, j, MPI_COMM_WORLD);
        }
    } else if (rank == 0) {
        for (m = 0; m < 6; m++) {
            if (m < 2) {
                MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st);
                MPI_Get_count(&st, MPI_INT, &count);
                MPI_Mrecv(buf, count, MPI_INT, &msg, &st);
            } else if (m < 4) {
                do {
                    MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st);
                } while (!flag);
                MPI_Get_count(&st, MPI_INT, &count);
                MPI_Imrecv(buf, count, MPI_INT, &msg, &req);
                MPI_Wait(&req, &st);
            } else {
                MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
                MPI_Get_count(&st, MPI_INT, &count);
                MPI_Recv(buf, count, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
            }
            src = st.MPI_SOURCE;
            if (src < 1 || src > 2 || next[src] > 2) { bad++; continue; }
            j = next[src]++;
            MPI_Get_count(&st, MPI_INT, &count);
            bad += st.MPI_TAG != j || count != j + 1;
            for (k = 0; k < count && k < 4; k++)
                bad += buf[k] != 100 * src + 10 * j + k;
        }
        if (bad || next[1] != 3 || next[2] != 3)
            printf("rank 0: %d wrong values\n", bad);
    }

    MPI_Finalize();
    return 0;
}
