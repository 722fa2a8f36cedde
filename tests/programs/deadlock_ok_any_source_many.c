/* EXPECT: OK  NP: 4 */
/*
 * Checks: wildcard traffic from many ranks, no false positive. Ranks 1..3
 * each send 50 messages to rank 0 with varied tags (0..4) and sizes (1..64
 * ints), alternating MPI_Send and MPI_Isend+MPI_Wait. Rank 0 receives all
 * 150 with MPI_ANY_SOURCE/MPI_ANY_TAG, in turn by MPI_Recv, by MPI_Irecv+
 * MPI_Wait, and by MPI_Iprobe(ANY_SOURCE, ANY_TAG) polling followed by
 * MPI_Recv of the probed source and tag. The status gives source, tag and
 * (MPI_Get_count) the length; every payload is checked.
 *
 * Why it is correct: every message has a matching receive; a receive longer
 * than the message is legal (MPI-3.1 sec. 3.2.4). Messages from one sender
 * are non-overtaking (sec. 3.5), and every receive here matches any tag, so
 * each sender's messages arrive in send order, which the check relies on.
 * The probed message is the first pending one from its source, so the
 * MPI_Recv of that source and tag receives exactly it (sec. 3.8.1).
 */
#include <mpi.h>
#include <stdio.h>

#define NMSG 50
#define MAXLEN 64

static int msg_len(int src, int i) { return 1 + (i * 13 + src * 7) % MAXLEN; }
static int msg_tag(int src, int i) { return (i + src) % 5; }
static int msg_val(int src, int i, int k) { return src * 1000000 + i * 1000 + k; }

int main(int argc, char **argv)
{
    int rank, size, i, k, m, flag, src, count, errors = 0;
    int buf[MAXLEN], next[4] = {0, 0, 0, 0};
    MPI_Status st;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (rank >= 1 && rank <= 3) {
        for (i = 0; i < NMSG; i++) {
            for (k = 0; k < msg_len(rank, i); k++)
                buf[k] = msg_val(rank, i, k);
            if (i % 2 == 0) {
                MPI_Send(buf, msg_len(rank, i), MPI_INT, 0, msg_tag(rank, i), MPI_COMM_WORLD);
            } else {
                MPI_Isend(buf, msg_len(rank, i), MPI_INT, 0, msg_tag(rank, i), MPI_COMM_WORLD, &req);
                MPI_Wait(&req, MPI_STATUS_IGNORE);
            }
        }
    } else if (rank == 0) {
        for (m = 0; m < 3 * NMSG; m++) {
            if (m % 3 == 0) {
                MPI_Recv(buf, MAXLEN, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            } else if (m % 3 == 1) {
                MPI_Irecv(buf, MAXLEN, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
                MPI_Wait(&req, &st);
            } else {
                do {
                    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
                } while (!flag);
                MPI_Recv(buf, MAXLEN, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
            }
            src = st.MPI_SOURCE;
            if (src < 1 || src > 3 || next[src] >= NMSG) { errors++; continue; }
            i = next[src]++;
            MPI_Get_count(&st, MPI_INT, &count);
            if (st.MPI_TAG != msg_tag(src, i) || count != msg_len(src, i)) { errors++; continue; }
            for (k = 0; k < count; k++)
                if (buf[k] != msg_val(src, i, k)) { errors++; break; }
        }
        if (errors || next[1] != NMSG || next[2] != NMSG || next[3] != NMSG)
            printf("rank 0: %d bad messages\n", errors);
    }

    MPI_Finalize();
    return 0;
}
