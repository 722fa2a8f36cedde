/* EXPECT: OK  NP: 4 */
/*
 * Checks: a plainly correct program mixing point-to-point styles; no finding
 * expected.
 *  - a token passed around a ring with MPI_Sendrecv and MPI_Sendrecv_replace
 *    (both halves of a Sendrecv proceed together, so a ring of them cannot
 *    deadlock, MPI-4.0 sec. 3.10);
 *  - a 1-D periodic halo exchange on a Cartesian communicator (MPI_Cart_create,
 *    MPI_Cart_shift), posted with MPI_Irecv/MPI_Isend and completed with
 *    MPI_Waitall, for several iterations of a 3-point stencil, with an
 *    MPI_Allreduce of the residual each iteration;
 *  - a non-periodic variant of the same exchange where the edges talk to
 *    MPI_PROC_NULL (returned by MPI_Cart_shift).
 * No send relies on MPI buffering, so the program is also correct when every
 * send is synchronous.
 */
#include <mpi.h>
#include <stdio.h>

#define NLOC 8
#define ITERS 5

static void check(int ok, int rank, const char *what)
{
    if (!ok) {
        fprintf(stderr, "rank %d: wrong result of %s\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* One halo exchange of u[1..NLOC] with ghost cells u[0] and u[NLOC+1]. */
static void exchange(double *u, int left, int right, MPI_Comm comm)
{
    MPI_Request reqs[4];
    MPI_Status sts[4];

    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, comm, &reqs[0]);
    MPI_Irecv(&u[NLOC + 1], 1, MPI_DOUBLE, right, 1, comm, &reqs[1]);
    MPI_Isend(&u[NLOC], 1, MPI_DOUBLE, right, 0, comm, &reqs[2]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, comm, &reqs[3]);
    MPI_Waitall(4, reqs, sts);
}

int main(int argc, char **argv)
{
    int rank, size, left, right, token, next, i, it, dims[1], periods[1];
    double u[NLOC + 2], unew[NLOC + 2], local, total, first_total = 0.0;
    MPI_Comm ring, line;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Token ring: after size steps every rank has its own token back. */
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    token = rank;
    for (i = 0; i < size; i++) {
        MPI_Sendrecv(&token, 1, MPI_INT, right, 10, &next, 1, MPI_INT, left, 10,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        token = next;
    }
    check(token == rank, rank, "MPI_Sendrecv ring");
    for (i = 0; i < size; i++)
        MPI_Sendrecv_replace(&token, 1, MPI_INT, left, 11, right, 11,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    check(token == rank, rank, "MPI_Sendrecv_replace ring");

    /* Periodic halo exchange: the stencil conserves the global sum. */
    dims[0] = size;
    periods[0] = 1;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    MPI_Comm_rank(ring, &rank);
    MPI_Cart_shift(ring, 0, 1, &left, &right);
    for (i = 1; i <= NLOC; i++)
        u[i] = rank * NLOC + i;
    for (it = 0; it < ITERS; it++) {
        exchange(u, left, right, ring);
        check(u[0] == (it == 0 ? left * NLOC + NLOC : u[0]), rank, "halo");
        for (i = 1; i <= NLOC; i++)
            unew[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
        local = 0.0;
        for (i = 1; i <= NLOC; i++) {
            u[i] = unew[i];
            local += u[i];
        }
        MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, ring);
        if (it == 0)
            first_total = total;
        check(total > 0.999999 * first_total && total < 1.000001 * first_total, rank,
              "conserved sum");
    }
    MPI_Comm_free(&ring);

    /* Non-periodic: the ends get MPI_PROC_NULL neighbours. */
    periods[0] = 0;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line);
    MPI_Comm_rank(line, &rank);
    MPI_Cart_shift(line, 0, 1, &left, &right);
    for (i = 0; i < NLOC + 2; i++)
        u[i] = rank;
    u[0] = u[NLOC + 1] = -1.0;
    exchange(u, left, right, line);
    check(u[0] == (left == MPI_PROC_NULL ? -1.0 : (double)left), rank, "left ghost");
    check(u[NLOC + 1] == (right == MPI_PROC_NULL ? -1.0 : (double)right), rank,
          "right ghost");
    MPI_Comm_free(&line);

    if (rank == 0)
        printf("ok_ring_halo: done, sum %.3f\n", first_total);
    MPI_Finalize();
    return 0;
}
