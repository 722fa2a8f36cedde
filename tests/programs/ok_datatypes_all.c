/* EXPECT: OK  NP: 2 */
/*
 * Checks: every derived-datatype constructor, used the way the standard allows;
 * no finding expected.
 *
 *  - contiguous, vector, hvector, indexed, hindexed, indexed_block,
 *    hindexed_block, struct, resized, subarray, darray: built, committed, used
 *    to communicate, freed.
 *  - MPI_Type_dup of a committed type is committed (MPI-4.0 sec. 5.1.10: "the
 *    new type has the same committed state as the old"): used without its own
 *    MPI_Type_commit. The dup of an uncommitted type is committed explicitly.
 *    A dup of a predefined type is committed too.
 *  - MPI_Type_get_envelope / MPI_Type_get_contents: the derived datatypes
 *    returned by get_contents are new references the caller must free (sec.
 *    5.1.13); predefined ones (combiner MPI_COMBINER_NAMED) must not be freed.
 *    The implementation may return the very handle of the inner type (with a
 *    reference count): freeing that reference leaves the user's own handle to
 *    the inner type valid, and it is used afterwards (MPI_BOTTOM send with an
 *    absolute-address struct). A type returned by get_contents is itself
 *    committed and used from MPI_BOTTOM before it is freed.
 *  - MPI_Type_create_f90_real/complex/integer and MPI_Type_match_size return
 *    predefined datatypes that must not be freed (sec. 19.1.9).
 *  - MPI_Pack / MPI_Unpack / MPI_Pack_size / MPI_Pack_external(_size) /
 *    MPI_Unpack_external, MPI_Get_count / MPI_Get_elements(_x) on a partial
 *    receive (a message that fills only part of a derived receive type: legal,
 *    get_count returns MPI_UNDEFINED).
 *  - datatype attributes and names.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int rank, fails;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "rank %d: check failed at line %d: %s\n", \
                                          rank, __LINE__, #c); fails++; } } while (0)

struct particle {
    int id;
    double x[3];
    char tag;
};

/* Frees the datatypes get_contents returned, except the predefined ones. */
static void free_contents_types(int n, MPI_Datatype *types)
{
    for (int i = 0; i < n; i++) {
        int ni, na, nd, comb;
        MPI_Type_get_envelope(types[i], &ni, &na, &nd, &comb);
        if (comb != MPI_COMBINER_NAMED)
            MPI_Type_free(&types[i]);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Status st;

    /* --- contiguous */
    MPI_Datatype t_contig;
    MPI_Type_contiguous(4, MPI_INT, &t_contig);
    MPI_Type_commit(&t_contig);
    {
        int buf[8];
        for (int i = 0; i < 8; i++)
            buf[i] = rank == 0 ? i : -1;
        if (rank == 0) {
            MPI_Send(buf, 2, t_contig, 1, 1, MPI_COMM_WORLD);
        } else {
            int count, elems;
            MPI_Recv(buf, 2, t_contig, 0, 1, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, t_contig, &count);
            MPI_Get_elements(&st, t_contig, &elems);
            CHECK(count == 2 && elems == 8 && buf[7] == 7);
        }
    }

    /* --- vector: one column of a 4x4 row-major matrix */
    MPI_Datatype t_col;
    MPI_Type_vector(4, 1, 4, MPI_INT, &t_col);
    MPI_Type_commit(&t_col);
    {
        int m[16], col[4] = {0};
        for (int i = 0; i < 16; i++)
            m[i] = i;
        if (rank == 0)
            MPI_Send(&m[1], 1, t_col, 1, 2, MPI_COMM_WORLD);
        else {
            MPI_Recv(col, 4, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(col[0] == 1 && col[3] == 13);
        }
    }

    /* --- hvector, indexed, hindexed, indexed_block, hindexed_block */
    MPI_Datatype t_hvec, t_idx, t_hidx, t_iblk, t_hiblk;
    MPI_Type_create_hvector(3, 2, 5 * sizeof(double), MPI_DOUBLE, &t_hvec);
    int bl[3] = {1, 2, 3}, disp[3] = {0, 3, 7};
    MPI_Type_indexed(3, bl, disp, MPI_INT, &t_idx);
    MPI_Aint hdisp[3] = {0, 3 * sizeof(int), 7 * sizeof(int)};
    MPI_Type_create_hindexed(3, bl, hdisp, MPI_INT, &t_hidx);
    int bdisp[3] = {0, 4, 8};
    MPI_Type_create_indexed_block(3, 2, bdisp, MPI_INT, &t_iblk);
    MPI_Aint hbdisp[3] = {0, 4 * sizeof(int), 8 * sizeof(int)};
    MPI_Type_create_hindexed_block(3, 2, hbdisp, MPI_INT, &t_hiblk);
    MPI_Datatype all5[5] = {t_hvec, t_idx, t_hidx, t_iblk, t_hiblk};
    for (int k = 0; k < 5; k++)
        MPI_Type_commit(&all5[k]);
    t_hvec = all5[0]; t_idx = all5[1]; t_hidx = all5[2]; t_iblk = all5[3]; t_hiblk = all5[4];
    {
        double d[15];
        int a[16], b[16];
        for (int i = 0; i < 15; i++)
            d[i] = rank == 0 ? i : -1;
        for (int i = 0; i < 16; i++)
            a[i] = rank == 0 ? i : -1;
        if (rank == 0) {
            MPI_Send(d, 1, t_hvec, 1, 3, MPI_COMM_WORLD);
            MPI_Send(a, 1, t_idx, 1, 4, MPI_COMM_WORLD);
            MPI_Send(a, 1, t_hidx, 1, 5, MPI_COMM_WORLD);
            MPI_Send(a, 1, t_iblk, 1, 6, MPI_COMM_WORLD);
            MPI_Send(a, 1, t_hiblk, 1, 7, MPI_COMM_WORLD);
        } else {
            double r[6];
            MPI_Recv(r, 6, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(r[0] == 0 && r[1] == 1 && r[2] == 5 && r[5] == 11);
            /* received with the same derived types on both sides */
            MPI_Recv(b, 1, t_idx, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(b[0] == 0 && b[3] == 3 && b[9] == 9);
            MPI_Recv(b, 6, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(b[0] == 0 && b[1] == 3 && b[5] == 9);
            MPI_Recv(b, 6, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(b[2] == 4 && b[5] == 9);
            MPI_Recv(b, 1, t_hiblk, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(b[8] == 8 && b[9] == 9);
        }
    }

    /* --- struct + resized to the C struct's size (arrays of structs) */
    MPI_Datatype t_part0, t_part;
    {
        struct particle p;
        int blens[3] = {1, 3, 1};
        MPI_Aint base, disps[3];
        MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
        MPI_Get_address(&p, &base);
        MPI_Get_address(&p.id, &disps[0]);
        MPI_Get_address(&p.x, &disps[1]);
        MPI_Get_address(&p.tag, &disps[2]);
        for (int i = 0; i < 3; i++)
            disps[i] = MPI_Aint_diff(disps[i], base);
        MPI_Type_create_struct(3, blens, disps, types, &t_part0);
        MPI_Type_create_resized(t_part0, 0, sizeof(struct particle), &t_part);
        MPI_Type_commit(&t_part);   /* t_part0 itself is never used to communicate */
        struct particle ps[3];
        memset(ps, 0, sizeof ps);
        if (rank == 0) {
            for (int i = 0; i < 3; i++) {
                ps[i].id = i;
                ps[i].x[2] = i * 0.5;
                ps[i].tag = 'a' + i;
            }
            MPI_Send(ps, 3, t_part, 1, 8, MPI_COMM_WORLD);
        } else {
            MPI_Recv(ps, 3, t_part, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(ps[2].id == 2 && ps[2].x[2] == 1.0 && ps[2].tag == 'c');
        }
        MPI_Aint lb, ext, tlb, text;
        MPI_Type_get_extent(t_part, &lb, &ext);
        MPI_Type_get_true_extent(t_part, &tlb, &text);
        CHECK(lb == 0 && ext == (MPI_Aint)sizeof(struct particle));
        MPI_Count lbx, extx, sz;
        MPI_Type_get_extent_x(t_part, &lbx, &extx);
        MPI_Type_size_x(t_part, &sz);
        CHECK(extx == (MPI_Count)sizeof(struct particle) && sz == (MPI_Count)(sizeof(int) + 3 * sizeof(double) + 1));
    }

    /* --- resized vector: a column type of extent one int, for Scatter of columns */
    MPI_Datatype t_colr;
    MPI_Type_create_resized(t_col, 0, sizeof(int), &t_colr);
    MPI_Type_commit(&t_colr);
    {
        int m[16], col[4];
        for (int i = 0; i < 16; i++)
            m[i] = i;
        /* 2 ranks: each gets 2 columns of the 4x4 matrix at rank 0 */
        int got[8];
        MPI_Scatter(m, 2, t_colr, got, 8, MPI_INT, 0, MPI_COMM_WORLD);
        CHECK(got[0] == 2 * rank && got[4] == 2 * rank + 1);
        (void)col;
    }

    /* --- subarray */
    MPI_Datatype t_sub;
    {
        int sizes[2] = {4, 6}, subs[2] = {2, 3}, starts[2] = {1, 2};
        MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t_sub);
        MPI_Type_commit(&t_sub);
        int arr[24], out[6];
        for (int i = 0; i < 24; i++)
            arr[i] = i;
        MPI_Sendrecv(arr, 1, t_sub, 0, 9, out, 6, MPI_INT, 0, 9, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        CHECK(out[0] == 8 && out[2] == 10 && out[3] == 14);
    }

    /* --- darray: 8 ints block-distributed over the 2 ranks */
    MPI_Datatype t_dar;
    {
        int gs[1] = {8}, dist[1] = {MPI_DISTRIBUTE_BLOCK}, darg[1] = {MPI_DISTRIBUTE_DFLT_DARG}, ps[1] = {2};
        MPI_Type_create_darray(2, rank, 1, gs, dist, darg, ps, MPI_ORDER_C, MPI_INT, &t_dar);
        MPI_Type_commit(&t_dar);
        int g[8], mine[4];
        for (int i = 0; i < 8; i++)
            g[i] = i;
        int sz;
        MPI_Type_size(t_dar, &sz);
        CHECK(sz == 4 * (int)sizeof(int));
        MPI_Sendrecv(g, 1, t_dar, 0, 10, mine, 4, MPI_INT, 0, 10, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        CHECK(mine[0] == 4 * rank && mine[3] == 4 * rank + 3);
    }

    /* --- dup: of a committed type (committed), of an uncommitted one (commit
     * it), of a predefined one (committed) */
    MPI_Datatype t_dupc, t_raw, t_dupu, t_dupi;
    MPI_Type_dup(t_contig, &t_dupc);
    MPI_Type_contiguous(2, MPI_DOUBLE, &t_raw);     /* never committed, never used to communicate */
    MPI_Type_dup(t_raw, &t_dupu);
    MPI_Type_commit(&t_dupu);
    MPI_Type_dup(MPI_INT, &t_dupi);
    {
        int v[4] = {1, 2, 3, 4}, w[4];
        double dv[2] = {1, 2}, dw[2];
        int x = 5, y = 0;
        MPI_Sendrecv(v, 1, t_dupc, 0, 11, w, 4, MPI_INT, 0, 11, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        MPI_Sendrecv(dv, 1, t_dupu, 0, 12, dw, 2, MPI_DOUBLE, 0, 12, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&x, 1, t_dupi, 0, 13, &y, 1, MPI_INT, 0, 13, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        CHECK(w[3] == 4 && dw[1] == 2 && y == 5);
    }

    /* --- envelope / contents */
    {
        int ni, na, nd, comb;
        MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &comb);
        CHECK(comb == MPI_COMBINER_NAMED);   /* get_contents on it would be erroneous */

        int ints[16];
        MPI_Aint addrs[16];
        MPI_Datatype types[16];
        /* struct: all inner types predefined, nothing to free */
        MPI_Type_get_envelope(t_part0, &ni, &na, &nd, &comb);
        CHECK(comb == MPI_COMBINER_STRUCT && nd == 3);
        MPI_Type_get_contents(t_part0, ni, na, nd, ints, addrs, types);
        free_contents_types(nd, types);
        /* resized: the inner type is the derived struct: a new reference, freed */
        MPI_Type_get_envelope(t_part, &ni, &na, &nd, &comb);
        CHECK(comb == MPI_COMBINER_RESIZED && nd == 1);
        MPI_Type_get_contents(t_part, ni, na, nd, ints, addrs, types);
        free_contents_types(nd, types);
        /* dup and subarray and darray */
        MPI_Datatype q[4] = {t_dupu, t_sub, t_dar, t_colr};
        for (int k = 0; k < 4; k++) {
            MPI_Type_get_envelope(q[k], &ni, &na, &nd, &comb);
            CHECK(ni <= 16 && na <= 16 && nd <= 16);
            MPI_Type_get_contents(q[k], ni, na, nd, ints, addrs, types);
            free_contents_types(nd, types);
        }
    }

    /* --- absolute addresses: a struct of absolute addresses sent from
     * MPI_BOTTOM. Its handle is first obtained (and released) once more
     * through get_contents of a type built on it; the program's own handle
     * stays valid and committed (sec. 5.1.13: get_contents returns a new
     * reference, "handles ... to datatypes ... are new handles, or the same as
     * the old ones with a reference count"). */
    MPI_Datatype t_abs, t_wrap;
    {
        static int ai[2];
        static double ad;
        int blens[2] = {2, 1};
        MPI_Aint adisp[2];
        MPI_Datatype atypes[2] = {MPI_INT, MPI_DOUBLE};
        MPI_Get_address(ai, &adisp[0]);
        MPI_Get_address(&ad, &adisp[1]);
        MPI_Type_create_struct(2, blens, adisp, atypes, &t_abs);
        MPI_Type_commit(&t_abs);
        MPI_Type_contiguous(1, t_abs, &t_wrap);
        int ni, na, nd, comb, ints[4];
        MPI_Aint addrs[4];
        MPI_Datatype inner[2];
        MPI_Type_get_envelope(t_wrap, &ni, &na, &nd, &comb);
        CHECK(comb == MPI_COMBINER_CONTIGUOUS && nd == 1);
        MPI_Type_get_contents(t_wrap, ni, na, nd, ints, addrs, inner);
        free_contents_types(nd, inner);      /* releases get_contents' reference only */
        if (rank == 0) {
            ai[0] = 7; ai[1] = 8; ad = 9.5;
            MPI_Send(MPI_BOTTOM, 1, t_abs, 1, 14, MPI_COMM_WORLD);
        } else {
            MPI_Recv(MPI_BOTTOM, 1, t_abs, 0, 14, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(ai[0] == 7 && ai[1] == 8 && ad == 9.5);
        }
    }

    /* --- a datatype obtained from get_contents (a derived type of absolute
     * addresses), committed and used from MPI_BOTTOM, then freed: any derived
     * datatype handle may be committed and used to communicate */
    {
        static int bi[3];
        int blen[1] = {3};
        MPI_Aint bdisp[1];
        MPI_Datatype btypes[1] = {MPI_INT}, t_babs, t_bwrap, decoded[1];
        MPI_Get_address(bi, &bdisp[0]);
        MPI_Type_create_struct(1, blen, bdisp, btypes, &t_babs);
        MPI_Type_create_resized(t_babs, 0, 64, &t_bwrap);
        int ni, na, nd, comb, ints[2];
        MPI_Aint addrs[2];
        MPI_Type_get_envelope(t_bwrap, &ni, &na, &nd, &comb);
        CHECK(comb == MPI_COMBINER_RESIZED && nd == 1 && ni <= 2 && na <= 2);
        MPI_Type_get_contents(t_bwrap, ni, na, nd, ints, addrs, decoded);
        MPI_Type_commit(&decoded[0]);
        if (rank == 0) {
            bi[0] = 1; bi[1] = 2; bi[2] = 3;
            MPI_Send(MPI_BOTTOM, 1, decoded[0], 1, 18, MPI_COMM_WORLD);
        } else {
            MPI_Recv(MPI_BOTTOM, 1, decoded[0], 0, 18, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(bi[2] == 3);
        }
        free_contents_types(nd, decoded);
        MPI_Type_free(&t_bwrap);
        MPI_Type_free(&t_babs);
    }

    /* --- Fortran 90 parameterized types and match_size: predefined, never freed */
    {
        MPI_Datatype f90r, f90c, f90i, m8;
        MPI_Type_create_f90_real(6, MPI_UNDEFINED, &f90r);
        MPI_Type_create_f90_complex(15, MPI_UNDEFINED, &f90c);
        MPI_Type_create_f90_integer(9, &f90i);
        MPI_Type_match_size(MPI_TYPECLASS_REAL, sizeof(double), &m8);
        int s1, s2, s3;
        MPI_Type_size(f90r, &s1);
        MPI_Type_size(f90c, &s2);
        MPI_Type_size(f90i, &s3);
        CHECK(s1 >= 4 && s2 >= 16 && s3 >= 4);
        double dx = 2.5, dy = 0;
        /* Size-specific types match only themselves (MPI-3.1 17.1.9): the
         * receive uses the same type. */
        MPI_Sendrecv(&dx, 1, m8, 0, 15, &dy, 1, m8, 0, 15, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        CHECK(dy == 2.5);
    }

    /* --- Pack / Unpack / Pack_size, sent as MPI_PACKED */
    {
        int n = 3, psz1, psz2;
        double vals[15];
        for (int i = 0; i < 15; i++)
            vals[i] = i;
        MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &psz1);
        MPI_Pack_size(1, t_hvec, MPI_COMM_WORLD, &psz2);
        char pbuf[512];
        int pos = 0;
        CHECK(psz1 + psz2 <= (int)sizeof pbuf);
        if (rank == 0) {
            MPI_Pack(&n, 1, MPI_INT, pbuf, sizeof pbuf, &pos, MPI_COMM_WORLD);
            MPI_Pack(vals, 1, t_hvec, pbuf, sizeof pbuf, &pos, MPI_COMM_WORLD);
            MPI_Send(pbuf, pos, MPI_PACKED, 1, 16, MPI_COMM_WORLD);
        } else {
            int cnt, got_n = 0;
            double out[6];
            MPI_Recv(pbuf, sizeof pbuf, MPI_PACKED, 0, 16, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_PACKED, &cnt);
            MPI_Unpack(pbuf, cnt, &pos, &got_n, 1, MPI_INT, MPI_COMM_WORLD);
            MPI_Unpack(pbuf, cnt, &pos, out, 6, MPI_DOUBLE, MPI_COMM_WORLD);
            CHECK(got_n == 3 && out[2] == 5);
        }
        /* external32 */
        MPI_Aint esz, epos = 0, upos = 0;
        int ev[4] = {1, -2, 3, -4}, eo[4];
        char ebuf[64];
        MPI_Pack_external_size("external32", 1, t_contig, &esz);
        CHECK(esz == 16);
        MPI_Pack_external("external32", ev, 1, t_contig, ebuf, sizeof ebuf, &epos);
        MPI_Unpack_external("external32", ebuf, epos, &upos, eo, 4, MPI_INT);
        CHECK(eo[1] == -2 && eo[3] == -4);
    }

    /* --- partial receive: 7 ints into room for 3 x contiguous(3) */
    {
        MPI_Datatype t3;
        MPI_Type_contiguous(3, MPI_INT, &t3);
        MPI_Type_commit(&t3);
        int s[7] = {1, 2, 3, 4, 5, 6, 7}, r[9];
        if (rank == 0)
            MPI_Send(s, 7, MPI_INT, 1, 17, MPI_COMM_WORLD);
        else {
            int cnt, el;
            MPI_Count elx;
            MPI_Recv(r, 3, t3, 0, 17, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, t3, &cnt);
            MPI_Get_elements(&st, t3, &el);
            MPI_Get_elements_x(&st, t3, &elx);
            CHECK(cnt == MPI_UNDEFINED && el == 7 && elx == 7 && r[6] == 7);
        }
        MPI_Type_free(&t3);
    }

    /* --- names and attributes */
    {
        int kv, flag;
        static int val = 42;
        int *got;
        char name[MPI_MAX_OBJECT_NAME];
        int len;
        MPI_Type_set_name(t_part, "particle");
        MPI_Type_get_name(t_part, name, &len);
        CHECK(strcmp(name, "particle") == 0);
        MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kv, NULL);
        MPI_Type_set_attr(t_part, kv, &val);
        MPI_Type_get_attr(t_part, kv, &got, &flag);
        CHECK(flag && *got == 42);
        MPI_Type_delete_attr(t_part, kv);
        MPI_Type_free_keyval(&kv);
    }

    MPI_Type_free(&t_contig);
    MPI_Type_free(&t_col);
    MPI_Type_free(&t_colr);
    MPI_Type_free(&t_hvec);
    MPI_Type_free(&t_idx);
    MPI_Type_free(&t_hidx);
    MPI_Type_free(&t_iblk);
    MPI_Type_free(&t_hiblk);
    MPI_Type_free(&t_part0);
    MPI_Type_free(&t_part);
    MPI_Type_free(&t_sub);
    MPI_Type_free(&t_dar);
    MPI_Type_free(&t_dupc);
    MPI_Type_free(&t_raw);
    MPI_Type_free(&t_dupu);
    MPI_Type_free(&t_dupi);
    MPI_Type_free(&t_wrap);
    MPI_Type_free(&t_abs);

    int total;
    MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total)
        printf("ok_datatypes_all: %d checks failed\n", total);
    MPI_Finalize();
    return total != 0;
}
