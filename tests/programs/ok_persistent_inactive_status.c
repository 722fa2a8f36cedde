/* EXPECT: OK  NP: 2 */
/*
 * Checks: completion calls on an inactive persistent receive return the
 * empty status. Rank 0 creates two persistent receives with MPI_Recv_init,
 * one from source 1 and one from MPI_ANY_SOURCE (tag 3, up to 4 MPI_INT).
 * For each, twice: MPI_Start + MPI_Wait (rank 1 sends 2 ints), checking
 * data and status; then, on the now inactive request, MPI_Wait, MPI_Test
 * (flag must be 1) and MPI_Request_get_status (flag must be 1), each with a
 * status filled with garbage first. Finally MPI_Request_free.
 *
 * Why it is correct: a persistent request is inactive after its completion
 * (MPI-3.1 sec. 3.9). A completion call on an inactive (or null) request
 * returns at once with an empty status: MPI_SOURCE = MPI_ANY_SOURCE,
 * MPI_TAG = MPI_ANY_TAG, MPI_Get_count 0 and MPI_Test_cancelled false
 * (sec. 3.7.3; MPI_Request_get_status, sec. 3.7.6). MPI_ERROR is not
 * checked: single-completion calls need not set it (sec. 3.2.5). A checker
 * that copies the last receive's status into the inactive request's, as it
 * does for an active one, returns source 1, tag 3, count 2 instead.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank;

static void expect(int ok, const char *what, int pass)
{
    if (!ok) {
        fprintf(stderr, "rank %d: wrong result (%s request): %s\n", rank,
                pass ? "MPI_ANY_SOURCE" : "source 1", what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void garbage(MPI_Status *st)
{
    memset(st, 0x5a, sizeof *st);
    st->MPI_SOURCE = 1;
    st->MPI_TAG = 3;
}

static void check_empty(const MPI_Status *st, const char *what, int pass)
{
    int count = -1, cancelled = -1;
    MPI_Get_count(st, MPI_INT, &count);
    MPI_Test_cancelled(st, &cancelled);
    if (st->MPI_SOURCE != MPI_ANY_SOURCE || st->MPI_TAG != MPI_ANY_TAG || count != 0
        || cancelled != 0)
        fprintf(stderr, "rank %d: %s: source %d tag %d count %d cancelled %d\n", rank,
                what, st->MPI_SOURCE, st->MPI_TAG, count, cancelled);
    expect(st->MPI_SOURCE == MPI_ANY_SOURCE, what, pass);
    expect(st->MPI_TAG == MPI_ANY_TAG, what, pass);
    expect(count == 0, what, pass);
    expect(cancelled == 0, what, pass);
}

int main(int argc, char **argv)
{
    int pass, it, count, flag, buf[4], out[2];
    MPI_Request req;
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    for (pass = 0; pass < 2; pass++) {
        if (rank == 0) {
            MPI_Recv_init(buf, 4, MPI_INT, pass ? MPI_ANY_SOURCE : 1, 3, MPI_COMM_WORLD, &req);
            for (it = 0; it < 2; it++) {
                buf[0] = buf[1] = -1;
                MPI_Start(&req);
                garbage(&st);
                MPI_Wait(&req, &st);
                MPI_Get_count(&st, MPI_INT, &count);
                expect(req != MPI_REQUEST_NULL, "MPI_Wait freed a persistent request", pass);
                expect(st.MPI_SOURCE == 1 && st.MPI_TAG == 3 && count == 2,
                       "status of the active receive", pass);
                expect(buf[0] == 10 * pass + it && buf[1] == 100 + it, "received data", pass);

                garbage(&st);
                MPI_Wait(&req, &st);
                check_empty(&st, "MPI_Wait on the inactive request", pass);

                garbage(&st);
                flag = 0;
                MPI_Test(&req, &flag, &st);
                expect(flag == 1, "MPI_Test flag on the inactive request", pass);
                check_empty(&st, "MPI_Test on the inactive request", pass);

                garbage(&st);
                flag = 0;
                MPI_Request_get_status(req, &flag, &st);
                expect(flag == 1, "MPI_Request_get_status flag on the inactive request", pass);
                check_empty(&st, "MPI_Request_get_status on the inactive request", pass);
            }
            MPI_Request_free(&req);
        } else if (rank == 1) {
            for (it = 0; it < 2; it++) {
                out[0] = 10 * pass + it;
                out[1] = 100 + it;
                MPI_Send(out, 2, MPI_INT, 0, 3, MPI_COMM_WORLD);
            }
        }
    }

    MPI_Finalize();
    return 0;
}
