/* EXPECT: OK  NP: 4 */
/*
 * Checks: communicator constructors, groups, attributes, names, error
 * handlers and process topologies, used correctly; everything created is
 * freed; no finding expected.
 *
 *  - Comm_dup, Comm_idup (+ Wait; newcomm not touched before completion),
 *    Comm_dup_with_info, Comm_split with MPI_UNDEFINED (MPI_COMM_NULL comes
 *    back: nothing to free), Comm_split_type(MPI_COMM_TYPE_SHARED) and with
 *    MPI_UNDEFINED, Comm_create (MPI_COMM_NULL outside the group),
 *    Comm_create_group (called by the group members only, sec. 7.4.2).
 *  - groups: Comm_group, incl/excl/range_incl/range_excl/union/intersection/
 *    difference, translate_ranks (MPI_UNDEFINED results), compare. Results
 *    that come back as MPI_GROUP_EMPTY are predefined and not freed; all
 *    others are freed.
 *  - attributes: a keyval with MPI_COMM_DUP_FN copy and a counting delete
 *    callback; set/get/delete, copied by Comm_dup, deleted by Comm_free;
 *    predefined attribute MPI_TAG_UB.
 *  - names; a user error handler set on a communicator and freed while still
 *    attached (legal, sec. 9.3.4: freed when no longer in use), invoked by
 *    Comm_call_errhandler; the handle Comm_get_errhandler returns is freed.
 *  - Cartesian topology: Dims_create, Cart_create (one with fewer ranks than
 *    the communicator: MPI_COMM_NULL for the rest), Cart_shift giving
 *    MPI_PROC_NULL neighbours used directly in Sendrecv, Cart_coords,
 *    Cart_rank, Cart_get, Cartdim_get, Cart_sub, Cart_map, Topo_test, and a
 *    neighbour collective with MPI_PROC_NULL neighbours.
 *  - Graph_create + queries + Neighbor_allgather.
 *  - Dist_graph_create_adjacent on a weighted chain (rank 0 has indegree 0,
 *    the last rank outdegree 0, MPI_WEIGHTS_EMPTY there) with every neighbour
 *    collective, blocking and not; Dist_graph_create (non-adjacent form,
 *    MPI_UNWEIGHTED) + neighbour count. (MPICH 4.0.2 itself crashes in
 *    MPI_Dist_graph_neighbors when maxindegree exceeds a zero indegree.)
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* MPI_UNWEIGHTED is a small non-NULL pointer constant: gcc's array-bound
 * warnings on it are noise. */
#pragma GCC diagnostic ignored "-Wstringop-overread"
#pragma GCC diagnostic ignored "-Wstringop-overflow"

static int rank, size, fails;

/* MPICH 4.0.2 (ch4) delivers nothing to a rank of outdegree 0 in
 * MPI_(I)Neighbor_alltoallw (the library's bug, seen without mpicheck too):
 * the received value is not asserted there. */
#ifdef MPICH_VERSION
#define NBR_ALLTOALLW_BROKEN (rank == 3)
#else
#define NBR_ALLTOALLW_BROKEN 0
#endif
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "rank %d: check failed at line %d: %s\n", \
                                          rank, __LINE__, #c); fails++; } } while (0)

static int deletes, eh_calls;

static int count_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm; (void)keyval; (void)val; (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

static void my_eh(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    if (*code == MPI_ERR_OTHER)
        eh_calls++;
}

static void free_group(MPI_Group *g)
{
    if (*g != MPI_GROUP_EMPTY)
        MPI_Group_free(g);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4)
        MPI_Abort(MPI_COMM_WORLD, 1);
    int res;

    /* ---------------- duplication ---------------- */
    MPI_Comm d1, d2, d3;
    MPI_Request rq;
    MPI_Info info;
    MPI_Comm_dup(MPI_COMM_WORLD, &d1);
    MPI_Comm_idup(MPI_COMM_WORLD, &d2, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    MPI_Comm_dup_with_info(d1, info, &d3);
    MPI_Info_free(&info);
    MPI_Comm_compare(MPI_COMM_WORLD, d1, &res);
    CHECK(res == MPI_CONGRUENT);
    MPI_Comm_compare(d1, d1, &res);
    CHECK(res == MPI_IDENT);
    {
        int x = rank, y;
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, d2);
        CHECK(y == 6);
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_MAX, d3);
        CHECK(y == 3);
    }

    /* ---------------- split ---------------- */
    MPI_Comm even_odd, part, shared, noshared;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &even_odd);   /* key reverses the order */
    {
        int r;
        MPI_Comm_rank(even_odd, &r);
        CHECK(r == (rank < 2 ? 1 : 0));
    }
    MPI_Comm_split(MPI_COMM_WORLD, rank == 3 ? MPI_UNDEFINED : 0, 0, &part);
    CHECK((rank == 3) == (part == MPI_COMM_NULL));
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, rank, MPI_INFO_NULL, &noshared);
    CHECK(noshared == MPI_COMM_NULL);
    {
        int ssz;
        MPI_Comm_size(shared, &ssz);
        MPI_Barrier(shared);
        CHECK(ssz >= 1);
    }

    /* ---------------- groups ---------------- */
    MPI_Group world_g, g02, g13, gnone, gr, grx, gu, gi, gdiff, gempty_incl;
    MPI_Comm_group(MPI_COMM_WORLD, &world_g);
    int r02[2] = {0, 2}, r13[2] = {1, 3}, all4[4] = {0, 1, 2, 3};
    MPI_Group_incl(world_g, 2, r02, &g02);
    MPI_Group_incl(world_g, 2, r13, &g13);
    MPI_Group_incl(world_g, 0, r02, &gempty_incl);
    MPI_Group_excl(world_g, 4, all4, &gnone);
    int range[1][3] = {{0, 3, 2}};          /* ranks 0, 2 */
    MPI_Group_range_incl(world_g, 1, range, &gr);
    MPI_Group_range_excl(world_g, 1, range, &grx);   /* ranks 1, 3 */
    MPI_Group_union(g02, g13, &gu);
    MPI_Group_intersection(g02, g13, &gi);
    MPI_Group_difference(world_g, g13, &gdiff);
    {
        int gsz, grank, tr[4];
        MPI_Group_size(gnone, &gsz);
        CHECK(gsz == 0);
        MPI_Group_size(gi, &gsz);
        CHECK(gsz == 0);
        MPI_Group_compare(g02, gr, &res);
        CHECK(res == MPI_IDENT);
        MPI_Group_compare(gdiff, g02, &res);
        CHECK(res == MPI_IDENT);
        MPI_Group_compare(grx, g13, &res);
        CHECK(res == MPI_IDENT);
        MPI_Group_compare(gu, world_g, &res);
        CHECK(res == MPI_SIMILAR);      /* same members, order 0 2 1 3 */
        MPI_Group_compare(g02, g13, &res);
        CHECK(res == MPI_UNEQUAL);
        MPI_Group_rank(g02, &grank);
        CHECK(grank == (rank == 0 ? 0 : rank == 2 ? 1 : MPI_UNDEFINED));
        MPI_Group_translate_ranks(world_g, 4, all4, g13, tr);
        CHECK(tr[0] == MPI_UNDEFINED && tr[1] == 0 && tr[3] == 1);
        MPI_Group_translate_ranks(gnone, 0, all4, world_g, tr);   /* n = 0 is legal */
    }

    /* Comm_create: everyone calls, non-members get MPI_COMM_NULL */
    MPI_Comm c02, c13 = MPI_COMM_NULL;
    MPI_Comm_create(MPI_COMM_WORLD, g02, &c02);
    CHECK((rank % 2 == 0) == (c02 != MPI_COMM_NULL));
    /* Comm_create_group: only the members call */
    if (rank % 2 == 1) {
        MPI_Comm_create_group(MPI_COMM_WORLD, g13, 77, &c13);
        int s;
        MPI_Comm_size(c13, &s);
        CHECK(s == 2);
    }
    if (c02 != MPI_COMM_NULL) {
        MPI_Group cg;
        MPI_Comm_group(c02, &cg);
        MPI_Group_compare(cg, g02, &res);
        CHECK(res == MPI_IDENT);
        MPI_Group_free(&cg);
    }

    /* ---------------- names ---------------- */
    {
        char name[MPI_MAX_OBJECT_NAME];
        int len;
        MPI_Comm_set_name(d1, "dup-one");
        MPI_Comm_get_name(d1, name, &len);
        CHECK(strcmp(name, "dup-one") == 0 && len == 7);
        MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
        CHECK(strcmp(name, "MPI_COMM_WORLD") == 0);
    }

    /* ---------------- attributes ---------------- */
    {
        int kv, flag;
        static int payload = 5;
        int *got;
        void *ubp;
        MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &kv, NULL);
        MPI_Comm_set_attr(d1, kv, &payload);
        MPI_Comm_get_attr(d1, kv, &got, &flag);
        CHECK(flag && got == &payload);
        MPI_Comm copy;
        MPI_Comm_dup(d1, &copy);           /* MPI_COMM_DUP_FN copies the pointer */
        MPI_Comm_get_attr(copy, kv, &got, &flag);
        CHECK(flag && *got == 5);
        MPI_Comm_delete_attr(d1, kv);     /* delete callback #1 */
        MPI_Comm_get_attr(d1, kv, &got, &flag);
        CHECK(!flag);
        MPI_Comm_free(&copy);              /* delete callback #2 */
        CHECK(deletes == 2);
        MPI_Comm_free_keyval(&kv);
        CHECK(kv == MPI_KEYVAL_INVALID);
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ubp, &flag);
        CHECK(flag && *(int *)ubp >= 32767);
    }

    /* ---------------- error handlers ---------------- */
    {
        MPI_Errhandler eh, cur;
        MPI_Comm_create_errhandler(my_eh, &eh);
        MPI_Comm_set_errhandler(d3, eh);
        MPI_Errhandler_free(&eh);            /* still attached to d3: stays alive */
        CHECK(eh == MPI_ERRHANDLER_NULL);
        MPI_Comm_call_errhandler(d3, MPI_ERR_OTHER);
        CHECK(eh_calls == 1);
        MPI_Comm_get_errhandler(d3, &cur);   /* a new reference: must be freed */
        MPI_Errhandler_free(&cur);
        MPI_Comm_get_errhandler(MPI_COMM_WORLD, &cur);
        CHECK(cur == MPI_ERRORS_ARE_FATAL);
        MPI_Errhandler_free(&cur);
    }

    /* ---------------- Cartesian ---------------- */
    {
        int dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2], src, dst, r;
        MPI_Comm cart, row, cart3;
        MPI_Dims_create(4, 2, dims);
        CHECK(dims[0] == 2 && dims[1] == 2);
        MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
        MPI_Topo_test(cart, &r);
        CHECK(r == MPI_CART);
        MPI_Cartdim_get(cart, &r);
        CHECK(r == 2);
        MPI_Comm_rank(cart, &r);
        MPI_Cart_coords(cart, r, 2, coords);
        int back;
        MPI_Cart_rank(cart, coords, &back);
        CHECK(back == r);
        int gd[2], gp[2], gc[2];
        MPI_Cart_get(cart, 2, gd, gp, gc);
        CHECK(gc[0] == coords[0] && gc[1] == coords[1]);
        for (int dim = 0; dim < 2; dim++) {
            MPI_Cart_shift(cart, dim, 1, &src, &dst);
            /* on a 2x2 non-periodic grid one of the two is MPI_PROC_NULL */
            CHECK(src == MPI_PROC_NULL || dst == MPI_PROC_NULL);
            int out = r, in = -7;
            MPI_Sendrecv(&out, 1, MPI_INT, dst, 20 + dim, &in, 1, MPI_INT, src, 20 + dim, cart,
                         MPI_STATUS_IGNORE);
            CHECK(src == MPI_PROC_NULL ? in == -7 : in == src);
        }
        /* neighbour collective on the Cartesian grid: MPI_PROC_NULL neighbours
         * leave their receive blocks untouched */
        int nb_in[4] = {-1, -1, -1, -1}, nb_out = r;
        MPI_Neighbor_allgather(&nb_out, 1, MPI_INT, nb_in, 1, MPI_INT, cart);
        int remain[2] = {0, 1};
        MPI_Cart_sub(cart, remain, &row);
        MPI_Comm_size(row, &r);
        CHECK(r == 2);
        int newrank;
        MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &newrank);
        CHECK(newrank >= 0);
        /* fewer grid points than processes: rank 3 is left out */
        int d3d[1] = {3}, p3[1] = {1};
        MPI_Cart_create(MPI_COMM_WORLD, 1, d3d, p3, 0, &cart3);
        CHECK((rank == 3) == (cart3 == MPI_COMM_NULL));
        if (cart3 != MPI_COMM_NULL) {
            int a2a_out[2] = {rank, rank}, a2a_in[2];
            MPI_Neighbor_alltoall(a2a_out, 1, MPI_INT, a2a_in, 1, MPI_INT, cart3);
            CHECK(a2a_in[0] == (rank + 2) % 3 && a2a_in[1] == (rank + 1) % 3);
            MPI_Comm_free(&cart3);
        }
        MPI_Comm_free(&row);
        MPI_Comm_free(&cart);
    }

    /* ---------------- graph ---------------- */
    {
        int index[4] = {2, 4, 6, 8};
        int edges[8] = {1, 3, 0, 2, 1, 3, 2, 0};    /* a ring */
        MPI_Comm graph;
        MPI_Graph_create(MPI_COMM_WORLD, 4, index, edges, 0, &graph);
        int t, nn, ne, cnt, nbrs[2], gi_[4], ge[8];
        MPI_Topo_test(graph, &t);
        CHECK(t == MPI_GRAPH);
        MPI_Graphdims_get(graph, &nn, &ne);
        CHECK(nn == 4 && ne == 8);
        MPI_Graph_get(graph, 4, 8, gi_, ge);
        MPI_Graph_neighbors_count(graph, rank, &cnt);
        MPI_Graph_neighbors(graph, rank, 2, nbrs);
        CHECK(cnt == 2 && nbrs[0] == edges[2 * rank]);
        int gm;
        MPI_Graph_map(MPI_COMM_WORLD, 4, index, edges, &gm);
        int in[2], out = rank;
        MPI_Neighbor_allgather(&out, 1, MPI_INT, in, 1, MPI_INT, graph);
        CHECK(in[0] == nbrs[0] && in[1] == nbrs[1]);
        MPI_Comm_free(&graph);
    }

    /* ---------------- distributed graph: the chain 0 -> 1 -> 2 -> 3 ---------------- */
    {
        int srcs[1] = {rank - 1}, dsts[1] = {rank + 1};
        int indeg = rank == 0 ? 0 : 1, outdeg = rank == 3 ? 0 : 1;
        MPI_Comm chain, chain2;
        /* weighted; a zero-degree side passes MPI_WEIGHTS_EMPTY (MPI-3.0 sec. 7.5.4) */
        int sw[1] = {1}, dw[1] = {1};
        MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, indeg, srcs, indeg ? sw : MPI_WEIGHTS_EMPTY,
                                       outdeg, dsts, outdeg ? dw : MPI_WEIGHTS_EMPTY,
                                       MPI_INFO_NULL, 0, &chain);
        int i1, o1, w;
        MPI_Dist_graph_neighbors_count(chain, &i1, &o1, &w);
        CHECK(i1 == indeg && o1 == outdeg && w);
        int qs[1], qd[1], qsw[1], qdw[1];
        /* maxdegree = the real degree: MPICH 4.0.2 copies maxindegree entries
         * and crashes on a zero-degree side when it is larger */
        MPI_Dist_graph_neighbors(chain, indeg, qs, qsw, outdeg, qd, qdw);
        CHECK(rank == 0 || qs[0] == rank - 1);

        /* buffers of zero-degree sides hold nothing */
        int sb[1] = {10 + rank}, rb[1] = {-1};
        MPI_Neighbor_allgather(sb, 1, MPI_INT, rb, 1, MPI_INT, chain);
        CHECK(rank == 0 || rb[0] == 9 + rank);
        int rc[1] = {1}, rd[1] = {0}, sc[1] = {1}, sd[1] = {0};
        rb[0] = -1;
        MPI_Neighbor_allgatherv(sb, 1, MPI_INT, rb, rc, rd, MPI_INT, chain);
        CHECK(rank == 0 || rb[0] == 9 + rank);
        rb[0] = -1;
        MPI_Neighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, chain);
        CHECK(rank == 0 || rb[0] == 9 + rank);
        rb[0] = -1;
        MPI_Neighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, chain);
        CHECK(rank == 0 || rb[0] == 9 + rank);
        MPI_Aint wsd[1] = {0}, wrd[1] = {0};
        MPI_Datatype wst[1] = {MPI_INT}, wrt[1] = {MPI_INT};
        rb[0] = -1;
        MPI_Neighbor_alltoallw(sb, sc, wsd, wst, rb, rc, wrd, wrt, chain);
        CHECK(rank == 0 || rb[0] == 9 + rank || NBR_ALLTOALLW_BROKEN);

        MPI_Request nr[5];
        int r1[1] = {-1}, r2[1] = {-1}, r3[1] = {-1}, r4[1] = {-1}, r5[1] = {-1};
        MPI_Ineighbor_allgather(sb, 1, MPI_INT, r1, 1, MPI_INT, chain, &nr[0]);
        MPI_Ineighbor_allgatherv(sb, 1, MPI_INT, r2, rc, rd, MPI_INT, chain, &nr[1]);
        MPI_Ineighbor_alltoall(sb, 1, MPI_INT, r3, 1, MPI_INT, chain, &nr[2]);
        MPI_Ineighbor_alltoallv(sb, sc, sd, MPI_INT, r4, rc, rd, MPI_INT, chain, &nr[3]);
        MPI_Ineighbor_alltoallw(sb, sc, wsd, wst, r5, rc, wrd, wrt, chain, &nr[4]);
        MPI_Status nst[5];
        MPI_Waitall(5, nr, nst);
        CHECK(rank == 0 || (r1[0] == 9 + rank && r3[0] == 9 + rank));
        CHECK(rank == 0 || r5[0] == 9 + rank || NBR_ALLTOALLW_BROKEN);

        /* the same chain through the non-adjacent constructor: each rank gives its outgoing edge */
        int nsrc = rank == 3 ? 0 : 1, me[1] = {rank}, deg[1] = {1}, to[1] = {rank + 1};
        MPI_Dist_graph_create(MPI_COMM_WORLD, nsrc, me, deg, to, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &chain2);
        MPI_Dist_graph_neighbors_count(chain2, &i1, &o1, &w);
        CHECK(i1 == indeg && o1 == outdeg && !w);
        MPI_Comm_free(&chain2);
        MPI_Comm_free(&chain);
    }

    /* ---------------- cleanup ---------------- */
    free_group(&world_g);
    free_group(&g02);
    free_group(&g13);
    free_group(&gnone);
    free_group(&gempty_incl);
    free_group(&gr);
    free_group(&grx);
    free_group(&gu);
    free_group(&gi);
    free_group(&gdiff);
    if (c02 != MPI_COMM_NULL)
        MPI_Comm_free(&c02);
    if (c13 != MPI_COMM_NULL)
        MPI_Comm_free(&c13);
    if (part != MPI_COMM_NULL)
        MPI_Comm_free(&part);
    MPI_Comm_free(&shared);
    MPI_Comm_free(&even_odd);
    MPI_Comm_free(&d1);
    MPI_Comm_free(&d2);
    MPI_Comm_free(&d3);

    int total;
    MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total)
        printf("ok_comm_groups_topo: %d checks failed\n", total);
    MPI_Finalize();
    return total != 0;
}
