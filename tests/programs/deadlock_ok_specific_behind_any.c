/* EXPECT: OK  NP: 2 */
/*
 * Checks: receives and matched probes of one source posted while an earlier
 * MPI_ANY_SOURCE receive on the same communicator is still unmatched.
 *  1. Rank 0: A = MPI_Irecv(MPI_ANY_SOURCE, tag 1); a blocking
 *     MPI_Recv(source 1, MPI_ANY_TAG); MPI_Send of a reply to rank 1;
 *     MPI_Wait(A). Rank 1: MPI_Send tag 2 (value 22); MPI_Recv of the reply;
 *     only then MPI_Send tag 1 (value 11).
 *  2. Rank 0: A = MPI_Irecv(MPI_ANY_SOURCE, tag 5); B = MPI_Irecv(source 1,
 *     MPI_ANY_TAG); MPI_Mprobe(source 1, tag 6) + MPI_Mrecv; MPI_Wait(B);
 *     MPI_Wait(A). Rank 1 sends tag 6 (value 66), tag 6 (value 67), then
 *     tag 5 (value 55).
 *  3. Rank 0: A = MPI_Irecv(MPI_ANY_SOURCE, tag 7); MPI_Mprobe(source 1,
 *     tag 8) + MPI_Mrecv; MPI_Wait(A). Rank 1 sends tag 8 (value 88), then
 *     tag 7 (value 77).
 * Values, sources, tags and counts are checked; a wrong one aborts the job.
 *
 * Why it is correct: a message matches the first posted receive whose source
 * and tag it fits, and messages from one sender do not overtake each other
 * (MPI-3.1 sec. 3.5). In step 1 the wildcard receive A cannot take tag 2, so
 * the MPI_Recv (any tag) gets 22 and returns while A is pending; rank 1
 * sends 11 only after the reply, and A takes it. In step 2, B is posted
 * before the probe and fits 66, which comes first, so B gets 66 and the
 * matched probe gets 67 (sec. 3.8.2: a probe matches only messages not yet
 * matched by a posted receive); A gets 55. Step 3 is the plain case: A
 * cannot take tag 8, so the probe gets 88 and A 77.
 * A checker that holds back a receive behind an unmatched MPI_ANY_SOURCE one
 * (it could take the same messages) must still post it once its own
 * envelope has come: otherwise step 1 is a false deadlock (the MPI_Recv
 * never reaches MPI, rank 1 waits for the reply) and in step 2 the real
 * probe, reaching MPI before B, takes 66 and leaves 67 to B.
 */
#include <mpi.h>
#include <stdio.h>

static int rank;

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "rank %d: wrong result: %s\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void check_status(const MPI_Status *st, int src, int tag, int count, const char *what)
{
    int n = -1;
    MPI_Get_count(st, MPI_INT, &n);
    expect(st->MPI_SOURCE == src && st->MPI_TAG == tag && n == count, what);
}

int main(int argc, char **argv)
{
    int a = -1, b = -1, c = -1, v;
    MPI_Request ra, rb;
    MPI_Message msg;
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    if (rank == 0) {
        /* 1: blocking specific-source receive behind a wildcard one */
        MPI_Irecv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &ra);
        MPI_Recv(&b, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        check_status(&st, 1, 2, 1, "step 1: MPI_Recv(1, ANY_TAG) status");
        expect(b == 22, "step 1: MPI_Recv(1, ANY_TAG) value");
        v = 33;
        MPI_Send(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
        MPI_Wait(&ra, &st);
        check_status(&st, 1, 1, 1, "step 1: MPI_Irecv(ANY_SOURCE, tag 1) status");
        expect(a == 11, "step 1: MPI_Irecv(ANY_SOURCE, tag 1) value");

        /* 2: receive and matched probe behind a wildcard receive */
        a = b = c = -1;
        MPI_Irecv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &ra);
        MPI_Irecv(&b, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &rb);
        MPI_Mprobe(1, 6, MPI_COMM_WORLD, &msg, &st);
        check_status(&st, 1, 6, 1, "step 2: MPI_Mprobe status");
        MPI_Mrecv(&c, 1, MPI_INT, &msg, &st);
        check_status(&st, 1, 6, 1, "step 2: MPI_Mrecv status");
        expect(c == 67, "step 2: MPI_Mrecv value (the second tag-6 message)");
        MPI_Wait(&rb, &st);
        check_status(&st, 1, 6, 1, "step 2: MPI_Irecv(1, ANY_TAG) status");
        expect(b == 66, "step 2: MPI_Irecv(1, ANY_TAG) value (the first tag-6 message)");
        MPI_Wait(&ra, &st);
        check_status(&st, 1, 5, 1, "step 2: MPI_Irecv(ANY_SOURCE, tag 5) status");
        expect(a == 55, "step 2: MPI_Irecv(ANY_SOURCE, tag 5) value");

        /* 3: matched probe of another tag behind a wildcard receive */
        a = c = -1;
        MPI_Irecv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &ra);
        MPI_Mprobe(1, 8, MPI_COMM_WORLD, &msg, &st);
        MPI_Mrecv(&c, 1, MPI_INT, &msg, &st);
        check_status(&st, 1, 8, 1, "step 3: MPI_Mrecv status");
        expect(c == 88, "step 3: MPI_Mrecv value");
        MPI_Wait(&ra, &st);
        check_status(&st, 1, 7, 1, "step 3: MPI_Irecv(ANY_SOURCE, tag 7) status");
        expect(a == 77, "step 3: MPI_Irecv(ANY_SOURCE, tag 7) value");
    } else if (rank == 1) {
        v = 22; MPI_Send(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
        MPI_Recv(&b, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &st);
        check_status(&st, 0, 3, 1, "step 1: reply status");
        expect(b == 33, "step 1: reply value");
        v = 11; MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        v = 66; MPI_Send(&v, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
        v = 67; MPI_Send(&v, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
        v = 55; MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
        v = 88; MPI_Send(&v, 1, MPI_INT, 0, 8, MPI_COMM_WORLD);
        v = 77; MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
    }

    MPI_Finalize();
    return 0;
}
