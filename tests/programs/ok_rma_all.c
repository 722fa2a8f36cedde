/* EXPECT: OK  NP: 3 */
/*
 * Checks: one-sided communication with every window flavour and every
 * synchronization mode, used correctly; no finding expected.
 *
 *  - Win_allocate: fence epochs with Put, Get, Accumulate, Get_accumulate
 *    with MPI_NO_OP (origin buffer, count and datatype are ignored then,
 *    MPI-4.0 sec. 12.3.4: NULL / 0 is passed), Fetch_and_op with MPI_NO_OP and
 *    a NULL origin, Compare_and_swap, and operations whose target is
 *    MPI_PROC_NULL (legal no-ops, sec. 12.3).
 *  - passive target: lock/unlock (exclusive and shared), lock_all with flush,
 *    flush_local, flush_all, flush_local_all, unlock_all; request-based Rput,
 *    Rget, Raccumulate, Rget_accumulate (NO_OP) completed with Wait/Waitall,
 *    an Rput to MPI_PROC_NULL whose request is still completed.
 *  - generalized active target: post/start/complete/wait, and Win_test.
 *  - Win_create on MPI_Alloc_mem memory, window attributes, name, info, group
 *    (freed), a user error handler (freed while attached).
 *  - Win_allocate_shared + Win_shared_query (also with MPI_PROC_NULL) and
 *    load/store with Win_sync.
 *  - Win_create_dynamic + Win_attach / Win_detach, target displacements are
 *    absolute addresses exchanged with Allgather.
 *  Every access pattern avoids conflicting accesses within an epoch.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size, fails;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "rank %d: check failed at line %d: %s\n", \
                                          rank, __LINE__, #c); fails++; } } while (0)

static int win_eh_calls;
static void win_eh(MPI_Win *win, int *code, ...)
{
    (void)win;
    if (*code == MPI_ERR_OTHER)
        win_eh_calls++;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    /* ================= Win_allocate ================= */
    int *base;
    MPI_Win win;
    MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    for (int i = 0; i < 16; i++)
        base[i] = 100 * rank + i;

    /* --- fence epoch */
    {
        int put = 1000 + rank, got = -1, nowhere = -1, one = 1, old3 = -1, old4 = -1, cmp = 5, swp = 555, res = -1;
        MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
        MPI_Put(&put, 1, MPI_INT, right, 0, 1, MPI_INT, win);          /* right's [0] */
        MPI_Get(&got, 1, MPI_INT, left, 1, 1, MPI_INT, win);           /* left's [1], unwritten */
        MPI_Accumulate(&one, 1, MPI_INT, 0, 2, 1, MPI_INT, MPI_SUM, win);   /* 0's [2] from all */
        MPI_Get_accumulate(NULL, 0, MPI_DATATYPE_NULL, &old3, 1, MPI_INT, right, 3, 1, MPI_INT,
                           MPI_NO_OP, win);                             /* atomic read */
        MPI_Fetch_and_op(NULL, &old4, MPI_INT, left, 4, MPI_NO_OP, win);
        if (rank == 1)
            MPI_Compare_and_swap(&swp, &cmp, &res, MPI_INT, 0, 5, win); /* 0's [5]: 5 -> 555 */
        MPI_Put(&put, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win);
        MPI_Get(&nowhere, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win);   /* no-op, own buffer */
        MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
        CHECK(base[0] == 1000 + left);
        CHECK(got == 100 * left + 1 && nowhere == -1);
        CHECK(rank != 0 || base[2] == 2 + size);
        CHECK(old3 == 100 * right + 3 && old4 == 100 * left + 4);
        CHECK(rank != 1 || res == 5);
        CHECK(rank != 0 || base[5] == 555);
    }

    /* --- lock / unlock: every rank writes right's [6] under an exclusive lock */
    {
        int v = 2000 + rank;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
        MPI_Put(&v, 1, MPI_INT, right, 6, 1, MPI_INT, win);
        MPI_Win_unlock(right, win);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);      /* local access to the window */
        CHECK(base[6] == 2000 + left);
        MPI_Win_unlock(rank, win);
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* --- lock_all with flushes and request-based operations */
    {
        int v7 = 3000 + rank, g9 = -1, one = 1, r11 = -1, v8 = 4000 + rank, pn = 1;
        MPI_Request rq[4], rn;
        MPI_Win_lock_all(0, win);
        MPI_Put(&v7, 1, MPI_INT, right, 7, 1, MPI_INT, win);
        MPI_Win_flush_local(right, win);      /* v7 may be reused now */
        MPI_Win_flush(right, win);            /* and the put is complete at the target */
        MPI_Rput(&v8, 1, MPI_INT, right, 8, 1, MPI_INT, win, &rq[0]);
        MPI_Rget(&g9, 1, MPI_INT, left, 9, 1, MPI_INT, win, &rq[1]);
        MPI_Raccumulate(&one, 1, MPI_INT, 0, 10, 1, MPI_INT, MPI_SUM, win, &rq[2]);
        MPI_Rget_accumulate(NULL, 0, MPI_DATATYPE_NULL, &r11, 1, MPI_INT, 0, 11, 1, MPI_INT, MPI_NO_OP,
                            win, &rq[3]);
        MPI_Rput(&pn, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win, &rn);
        MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
        MPI_Status sts[4];
        MPI_Waitall(4, rq, sts);
        MPI_Wait(&rn, MPI_STATUS_IGNORE);
        MPI_Win_flush_all(win);
        MPI_Win_flush_local_all(win);
        MPI_Win_sync(win);
        MPI_Win_unlock_all(win);
        CHECK(g9 == 100 * left + 9 && r11 == 11);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
        CHECK(base[7] == 3000 + left && base[8] == 4000 + left);
        CHECK(rank != 0 || base[10] == 10 + size);
        MPI_Win_unlock(rank, win);
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* --- PSCW: rank 0 exposes, the others access; second round with Win_test */
    {
        MPI_Group wg, g;
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        for (int round = 0; round < 2; round++) {
            int v = 5000 + 10 * round + rank;
            if (rank == 0) {
                int others[8];
                for (int i = 1; i < size; i++)
                    others[i - 1] = i;
                MPI_Group_incl(wg, size - 1, others, &g);
                MPI_Win_post(g, 0, win);
                if (round == 0)
                    MPI_Win_wait(win);
                else {
                    int flag = 0;
                    while (!flag)
                        MPI_Win_test(win, &flag);
                }
                for (int i = 1; i < size; i++)
                    CHECK(base[11 + i] == 5000 + 10 * round + i);
            } else {
                int zero = 0;
                MPI_Group_incl(wg, 1, &zero, &g);
                MPI_Win_start(g, 0, win);
                MPI_Put(&v, 1, MPI_INT, 0, 11 + rank, 1, MPI_INT, win);
                MPI_Win_complete(win);
            }
            MPI_Group_free(&g);
        }
        MPI_Group_free(&wg);
    }

    /* --- attributes, name, info, group, error handler */
    {
        void *attr;
        int flag, len, gsz;
        MPI_Win_get_attr(win, MPI_WIN_BASE, &attr, &flag);
        CHECK(flag && attr == base);
        MPI_Win_get_attr(win, MPI_WIN_SIZE, &attr, &flag);
        CHECK(flag && *(MPI_Aint *)attr == 16 * (MPI_Aint)sizeof(int));
        MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &attr, &flag);
        CHECK(flag && *(int *)attr == sizeof(int));
        MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &attr, &flag);
        CHECK(flag && *(int *)attr == MPI_WIN_FLAVOR_ALLOCATE);
        MPI_Win_get_attr(win, MPI_WIN_MODEL, &attr, &flag);
        CHECK(flag);
        char name[MPI_MAX_OBJECT_NAME];
        MPI_Win_set_name(win, "main-window");
        MPI_Win_get_name(win, name, &len);
        CHECK(strcmp(name, "main-window") == 0);
        MPI_Info info;
        MPI_Win_get_info(win, &info);
        MPI_Info_free(&info);
        MPI_Group g;
        MPI_Win_get_group(win, &g);
        MPI_Group_size(g, &gsz);
        CHECK(gsz == size);
        MPI_Group_free(&g);
        int kv;
        static int payload = 3;
        int *got;
        MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &kv, NULL);
        MPI_Win_set_attr(win, kv, &payload);
        MPI_Win_get_attr(win, kv, &got, &flag);
        CHECK(flag && *got == 3);
        MPI_Win_delete_attr(win, kv);
        MPI_Win_free_keyval(&kv);
        MPI_Errhandler eh;
        MPI_Win_create_errhandler(win_eh, &eh);
        MPI_Win_set_errhandler(win, eh);
        MPI_Errhandler_free(&eh);
        MPI_Win_call_errhandler(win, MPI_ERR_OTHER);
        CHECK(win_eh_calls == 1);
    }
    MPI_Win_free(&win);

    /* ================= Win_create on MPI_Alloc_mem memory =================
     * Open MPI 4.1 cannot create such windows when the shared-memory BTL has no
     * single-copy mechanism (the harness sets
     * OMPI_MCA_btl_vader_single_copy_mechanism=none): errors are returned on a
     * duplicate of MPI_COMM_WORLD and the part is skipped when any rank fails. */
    MPI_Comm ret_comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &ret_comm);
    MPI_Comm_set_errhandler(ret_comm, MPI_ERRORS_RETURN);
    {
        int *mem;
        MPI_Win w;
        MPI_Alloc_mem(4 * sizeof(int), MPI_INFO_NULL, &mem);
        for (int i = 0; i < 4; i++)
            mem[i] = -1;
        int rc = MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, ret_comm, &w);
        int ok = rc == MPI_SUCCESS, all_ok;
        MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        if (all_ok) {
            int v = rank;
            MPI_Win_fence(0, w);
            MPI_Put(&v, 1, MPI_INT, right, rank, 1, MPI_INT, w);
            MPI_Win_fence(0, w);
            CHECK(mem[left] == left);
        }
        if (ok)
            MPI_Win_free(&w);
        MPI_Free_mem(mem);
    }

    /* ================= Win_allocate_shared ================= */
    {
        MPI_Comm node;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
        int nrank, nsize;
        MPI_Comm_rank(node, &nrank);
        MPI_Comm_size(node, &nsize);
        int *mine, *first;
        MPI_Win sw;
        MPI_Win_allocate_shared(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mine, &sw);
        MPI_Aint qsize;
        int qdisp;
        MPI_Win_shared_query(sw, MPI_PROC_NULL, &qsize, &qdisp, &first);   /* lowest rank with size > 0 */
        int *nbr;
        MPI_Win_shared_query(sw, (nrank + 1) % nsize, &qsize, &qdisp, &nbr);
        CHECK(qsize == 2 * (MPI_Aint)sizeof(int) && qdisp == sizeof(int));
        MPI_Win_lock_all(MPI_MODE_NOCHECK, sw);
        mine[0] = 7000 + nrank;
        MPI_Win_sync(sw);
        MPI_Barrier(node);
        MPI_Win_sync(sw);
        CHECK(nbr[0] == 7000 + (nrank + 1) % nsize);
        CHECK(first[0] == 7000);
        MPI_Win_unlock_all(sw);
        MPI_Win_free(&sw);
        MPI_Comm_free(&node);
    }

    /* ================= Win_create_dynamic ================= */
    {
        MPI_Win dw;
        int *mem;
        MPI_Aint addr, addrs[16];
        int rc = MPI_Win_create_dynamic(MPI_INFO_NULL, ret_comm, &dw);
        int ok = rc == MPI_SUCCESS, all_ok;
        MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        if (!all_ok) {
            if (ok)
                MPI_Win_free(&dw);
            goto dynamic_done;
        }
        MPI_Alloc_mem(2 * sizeof(int), MPI_INFO_NULL, &mem);
        mem[0] = mem[1] = -1;
        MPI_Win_attach(dw, mem, 2 * sizeof(int));
        MPI_Get_address(mem, &addr);
        MPI_Allgather(&addr, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD);
        int v = 8000 + rank;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, dw);
        MPI_Put(&v, 1, MPI_INT, right, addrs[right], 1, MPI_INT, dw);
        MPI_Win_unlock(right, dw);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, dw);
        CHECK(mem[0] == 8000 + left);
        MPI_Win_unlock(rank, dw);
        MPI_Barrier(MPI_COMM_WORLD);    /* nobody accesses mem any more */
        MPI_Win_detach(dw, mem);
        MPI_Free_mem(mem);
        MPI_Win_free(&dw);
    }
dynamic_done:
    MPI_Comm_free(&ret_comm);

    int total;
    MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total)
        printf("ok_rma_all: %d checks failed\n", total);
    MPI_Finalize();
    return total != 0;
}
