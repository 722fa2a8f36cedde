/* EXPECT: OK  NP: 3 */
/*
 * Checks: point-to-point modes, probes, matched receives and the assorted
 * environment functions, used correctly; no finding expected.
 *
 *  - before MPI_Init: MPI_Initialized, MPI_Get_version, MPI_Get_library_version
 *    and the MPI_T interface (MPI_T_init_thread and queries), all callable at
 *    any time (MPI-4.0 sec. 11.4.1 and 15.3.4); MPI_T_finalize
 *    after MPI_Init; after MPI_Finalize: MPI_Initialized, MPI_Finalized,
 *    MPI_Get_version.
 *  - MPI_Pcontrol (with extra arguments), Wtime/Wtick, Get_processor_name,
 *    Query_thread, Is_thread_main, Comm_get_parent (MPI_COMM_NULL: nothing to
 *    free), handle and status conversions (c2f/f2c).
 *  - info objects: create/set/get/get_valuelen/get_nkeys/get_nthkey/dup/
 *    delete/free; error classes, codes and strings.
 *  - buffered mode: Buffer_attach sized with Pack_size + MPI_BSEND_OVERHEAD,
 *    Bsend, Ibsend, Bsend_init/Start, Buffer_detach (which waits for the
 *    buffered messages).
 *  - Mprobe/Mrecv, Improbe/Imrecv, an Mprobe from MPI_PROC_NULL that returns
 *    MPI_MESSAGE_NO_PROC (then received with Mrecv, sec. 3.8.2), Probe/Iprobe
 *    with MPI_ANY_SOURCE/MPI_ANY_TAG.
 *  - Sendrecv_replace on a ring, Ssend, Issend, Rsend/Irsend/Rsend_init only
 *    after the receiver provably posted its receive (Irecv, then a barrier).
 *  - sends and receives with MPI_PROC_NULL, blocking and nonblocking (the
 *    nonblocking ones still return requests that are completed).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, fails;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "rank %d: check failed at line %d: %s\n", \
                                          rank, __LINE__, #c); fails++; } } while (0)

int main(int argc, char **argv)
{
    int flag, ver, subver, len, provided;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];

    /* ---------------- before MPI_Init ---------------- */
    MPI_Initialized(&flag);
    if (flag)
        fails++;
    MPI_Get_version(&ver, &subver);
    MPI_Get_library_version(lib, &len);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    int ncvar, npvar, ncat;
    MPI_T_cvar_get_num(&ncvar);
    MPI_T_pvar_get_num(&npvar);
    MPI_T_category_get_num(&ncat);
    /* MPI_T_finalize comes after MPI_Init: MPICH 4.0.2 crashes in MPI_Init when
     * the tools interface was initialized and finalized before it, and Open
     * MPI 4.1.4 crashes in MPI_T_finalize after MPI_Finalize */

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Status st;
    MPI_T_finalize();

    /* ---------------- environment ---------------- */
    MPI_Pcontrol(1);
    MPI_Pcontrol(2, "phase", 3);
    MPI_Pcontrol(0);
    double t0 = MPI_Wtime(), tick = MPI_Wtick();
    CHECK(tick > 0 && MPI_Wtime() >= t0);
    char pname[MPI_MAX_PROCESSOR_NAME];
    MPI_Get_processor_name(pname, &len);
    CHECK(len > 0 && len < MPI_MAX_PROCESSOR_NAME);
    int is_main;
    MPI_Query_thread(&provided);
    MPI_Is_thread_main(&is_main);
    CHECK(is_main);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    CHECK(parent == MPI_COMM_NULL);
    MPI_Fint fc = MPI_Comm_c2f(MPI_COMM_WORLD);
    CHECK(MPI_Comm_f2c(fc) == MPI_COMM_WORLD);
    MPI_Fint ft = MPI_Type_c2f(MPI_DOUBLE);
    CHECK(MPI_Type_f2c(ft) == MPI_DOUBLE);
    MPI_Fint fo = MPI_Op_c2f(MPI_SUM);
    CHECK(MPI_Op_f2c(fo) == MPI_SUM);
    MPI_Group wg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Fint fg = MPI_Group_c2f(wg);
    MPI_Group wg2 = MPI_Group_f2c(fg);
    CHECK(wg2 == wg);
    MPI_Group_free(&wg);           /* one object, freed once */

    /* ---------------- info ---------------- */
    {
        MPI_Info info, dup;
        char key[MPI_MAX_INFO_KEY + 1], val[64];
        int nkeys, vlen;
        MPI_Info_create(&info);
        MPI_Info_set(info, "color", "blue");
        MPI_Info_set(info, "shape", "round");
        MPI_Info_get_nkeys(info, &nkeys);
        CHECK(nkeys == 2);
        MPI_Info_get_nthkey(info, 1, key);
        MPI_Info_get_valuelen(info, "color", &vlen, &flag);
        CHECK(flag && vlen == 4);
        MPI_Info_get(info, "color", sizeof val - 1, val, &flag);
        CHECK(flag && strcmp(val, "blue") == 0);
        MPI_Info_dup(info, &dup);
        MPI_Info_delete(dup, "shape");
        MPI_Info_get_nkeys(dup, &nkeys);
        CHECK(nkeys == 1);
        MPI_Info_free(&dup);
        MPI_Info_free(&info);
        CHECK(info == MPI_INFO_NULL);
    }

    /* ---------------- errors ---------------- */
    {
        char msg[MPI_MAX_ERROR_STRING];
        int cls, code, newcls;
        MPI_Error_string(MPI_ERR_COUNT, msg, &len);
        MPI_Error_class(MPI_ERR_COUNT, &cls);
        CHECK(cls == MPI_ERR_COUNT);
        MPI_Add_error_class(&newcls);
        MPI_Add_error_code(newcls, &code);
        MPI_Add_error_string(code, "mpicheck test error");
        MPI_Error_string(code, msg, &len);
        CHECK(strcmp(msg, "mpicheck test error") == 0);
    }

    /* ---------------- buffered mode ---------------- */
    {
        int psz;
        MPI_Pack_size(4, MPI_INT, MPI_COMM_WORLD, &psz);
        int bsize = 3 * (psz + MPI_BSEND_OVERHEAD);
        char *buf = malloc(bsize);
        MPI_Buffer_attach(buf, bsize);
        int a[4] = {rank, 1, 2, 3}, b[4] = {rank, 4, 5, 6}, c[4] = {rank, 7, 8, 9};
        MPI_Request ib, pb;
        MPI_Bsend(a, 4, MPI_INT, right, 10, MPI_COMM_WORLD);
        MPI_Ibsend(b, 4, MPI_INT, right, 11, MPI_COMM_WORLD, &ib);
        MPI_Bsend_init(c, 4, MPI_INT, right, 12, MPI_COMM_WORLD, &pb);
        MPI_Start(&pb);
        int ra[4], rb[4], rc[4];
        MPI_Recv(rc, 4, MPI_INT, left, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(rb, 4, MPI_INT, left, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(ra, 4, MPI_INT, left, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(ra[0] == left && rb[3] == 6 && rc[3] == 9);
        MPI_Wait(&ib, MPI_STATUS_IGNORE);
        MPI_Wait(&pb, MPI_STATUS_IGNORE);
        MPI_Request_free(&pb);
        void *det;
        int dsize;
        MPI_Buffer_detach(&det, &dsize);
        CHECK(det == buf && dsize == bsize);
        free(buf);
    }

    /* ---------------- matched probe and receive ---------------- */
    {
        int v = 100 + rank, got = -1, cnt;
        MPI_Request sr;
        MPI_Message msg;
        MPI_Isend(&v, 1, MPI_INT, right, 20, MPI_COMM_WORLD, &sr);
        MPI_Mprobe(left, 20, MPI_COMM_WORLD, &msg, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(cnt == 1);
        MPI_Mrecv(&got, 1, MPI_INT, &msg, &st);
        CHECK(got == 100 + left && msg == MPI_MESSAGE_NULL);
        MPI_Wait(&sr, MPI_STATUS_IGNORE);

        MPI_Isend(&v, 1, MPI_INT, right, 21, MPI_COMM_WORLD, &sr);
        flag = 0;
        while (!flag)
            MPI_Improbe(MPI_ANY_SOURCE, 21, MPI_COMM_WORLD, &flag, &msg, &st);
        MPI_Request rr;
        got = -1;
        MPI_Imrecv(&got, 1, MPI_INT, &msg, &rr);
        MPI_Wait(&rr, &st);
        CHECK(got == 100 + left && st.MPI_SOURCE == left);
        MPI_Wait(&sr, MPI_STATUS_IGNORE);

        /* from MPI_PROC_NULL: MPI_MESSAGE_NO_PROC, received like any message */
        MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st);
        CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL);
        MPI_Mrecv(&got, 1, MPI_INT, &msg, &st);
        MPI_Improbe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &msg, &st);
        CHECK(flag && msg == MPI_MESSAGE_NO_PROC);
        MPI_Imrecv(&got, 1, MPI_INT, &msg, &rr);
        MPI_Wait(&rr, &st);
        int el;
        MPI_Get_elements(&st, MPI_INT, &el);
        CHECK(el == 0);
    }

    /* ---------------- probes with wildcards ---------------- */
    {
        int v[3] = {rank, rank, rank}, got[3], cnt;
        MPI_Request sr;
        MPI_Isend(v, 1 + rank, MPI_INT, right, 30 + rank, MPI_COMM_WORLD, &sr);
        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 30 + left);
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(cnt == 1 + left);
        flag = 0;
        while (!flag)
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        MPI_Recv(got, cnt, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
        CHECK(got[cnt - 1] == left);
        MPI_Wait(&sr, MPI_STATUS_IGNORE);
        MPI_Fint fst[32];   /* >= MPI_STATUS_SIZE of both libraries */
        MPI_Status back;
        MPI_Status_c2f(&st, fst);
        MPI_Status_f2c(fst, &back);
        CHECK(back.MPI_SOURCE == left);
    }

    /* ---------------- Sendrecv_replace, Ssend, Issend ---------------- */
    {
        int v[2] = {rank, -rank};
        MPI_Sendrecv_replace(v, 2, MPI_INT, right, 40, left, 40, MPI_COMM_WORLD, &st);
        CHECK(v[0] == left && v[1] == -left);
        int x = rank, y = -1;
        MPI_Request r;
        if (rank % 2 == 0) {      /* even ranks send first, odd ranks receive first */
            MPI_Ssend(&x, 1, MPI_INT, right, 41, MPI_COMM_WORLD);
            MPI_Recv(&y, 1, MPI_INT, left, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&y, 1, MPI_INT, left, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Ssend(&x, 1, MPI_INT, right, 41, MPI_COMM_WORLD);
        }
        CHECK(y == left);
        MPI_Issend(&x, 1, MPI_INT, right, 42, MPI_COMM_WORLD, &r);
        MPI_Recv(&y, 1, MPI_INT, left, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }

    /* ---------------- ready mode: the receive is posted before the barrier ---------------- */
    {
        int a = rank, b = 10 + rank, c = 20 + rank, ra = -1, rb = -1, rc = -1;
        MPI_Request rr[3], sr[2];
        MPI_Irecv(&ra, 1, MPI_INT, left, 50, MPI_COMM_WORLD, &rr[0]);
        MPI_Irecv(&rb, 1, MPI_INT, left, 51, MPI_COMM_WORLD, &rr[1]);
        MPI_Irecv(&rc, 1, MPI_INT, left, 52, MPI_COMM_WORLD, &rr[2]);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Rsend(&a, 1, MPI_INT, right, 50, MPI_COMM_WORLD);
        MPI_Irsend(&b, 1, MPI_INT, right, 51, MPI_COMM_WORLD, &sr[0]);
        MPI_Rsend_init(&c, 1, MPI_INT, right, 52, MPI_COMM_WORLD, &sr[1]);
        MPI_Start(&sr[1]);
        MPI_Status sts[3];
        MPI_Waitall(3, rr, sts);
        MPI_Waitall(2, sr, sts);
        MPI_Request_free(&sr[1]);
        CHECK(ra == left && rb == 10 + left && rc == 20 + left);
    }

    /* ---------------- MPI_PROC_NULL ---------------- */
    {
        int v = 1, w = -3;
        MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 60, MPI_COMM_WORLD);
        MPI_Recv(&w, 1, MPI_INT, MPI_PROC_NULL, 60, MPI_COMM_WORLD, &st);
        CHECK(w == -3 && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
        MPI_Request r[4];
        MPI_Irecv(&w, 1, MPI_INT, MPI_PROC_NULL, 61, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(&v, 1, MPI_INT, MPI_PROC_NULL, 61, MPI_COMM_WORLD, &r[1]);
        MPI_Issend(&v, 1, MPI_INT, MPI_PROC_NULL, 61, MPI_COMM_WORLD, &r[2]);
        MPI_Send_init(&v, 1, MPI_INT, MPI_PROC_NULL, 61, MPI_COMM_WORLD, &r[3]);
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        MPI_Start(&r[3]);
        flag = 0;
        while (!flag)
            MPI_Test(&r[1], &flag, MPI_STATUS_IGNORE);
        MPI_Status sts[4];
        MPI_Waitall(4, r, sts);
        MPI_Request_free(&r[3]);
        MPI_Sendrecv(&v, 1, MPI_INT, MPI_PROC_NULL, 62, &w, 1, MPI_INT, MPI_PROC_NULL, 62,
                     MPI_COMM_WORLD, &st);
    }

    int total;
    MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total)
        printf("ok_misc_p2p: %d checks failed\n", total);
    MPI_Finalize();

    /* ---------------- after MPI_Finalize ---------------- */
    MPI_Initialized(&flag);
    int fin;
    MPI_Finalized(&fin);
    MPI_Get_version(&ver, &subver);
    if (!flag || !fin)
        total++;
    return total != 0;
}
