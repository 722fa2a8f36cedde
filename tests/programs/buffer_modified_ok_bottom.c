/* EXPECT: OK  NP: 2 */
/*
 * Checks: buffers given as MPI_BOTTOM with datatypes of absolute addresses
 * (MPI_Get_address, MPI_Type_create_struct) in MPI_Isend/MPI_Irecv, whose
 * data the buffer checks hash, in MPI_Sendrecv and in MPI_Bcast. The
 * checker must not break them: with MPICH it packed the send's data with
 * PMPI_Pack(MPI_BOTTOM, ...), which MPICH 4.0 refuses (a NULL inbuf) with
 * an error fatal on MPI_COMM_SELF, and the job ended in MPI_Waitall.
 *
 * Why it is correct: MPI_BOTTOM is the start of the address space, and a
 * datatype's displacements may be absolute addresses (MPI-4.0 sec. 5.1.12).
 * The results are checked.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = 1 - rank;
    int a = rank, b[3] = {rank, rank, rank}, ra = -1, rb[3] = {-1, -1, -1};
    double d = rank, rd = -1;
    int blocks[3] = {1, 3, 1};
    MPI_Datatype types[3] = {MPI_INT, MPI_INT, MPI_DOUBLE}, send_t, recv_t;
    MPI_Aint sa[3], raddr[3];
    MPI_Get_address(&a, &sa[0]);
    MPI_Get_address(b, &sa[1]);
    MPI_Get_address(&d, &sa[2]);
    MPI_Get_address(&ra, &raddr[0]);
    MPI_Get_address(rb, &raddr[1]);
    MPI_Get_address(&rd, &raddr[2]);
    MPI_Type_create_struct(3, blocks, sa, types, &send_t);
    MPI_Type_create_struct(3, blocks, raddr, types, &recv_t);
    MPI_Type_commit(&send_t);
    MPI_Type_commit(&recv_t);

    MPI_Request q[2];
    MPI_Irecv(MPI_BOTTOM, 1, recv_t, peer, 1, MPI_COMM_WORLD, &q[0]);
    MPI_Isend(MPI_BOTTOM, 1, send_t, peer, 1, MPI_COMM_WORLD, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    int ok = ra == peer && rb[0] == peer && rb[2] == peer && rd == peer;

    ra = -1;
    MPI_Sendrecv(MPI_BOTTOM, 1, send_t, peer, 2, MPI_BOTTOM, 1, recv_t, peer, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    ok = ok && ra == peer;

    MPI_Bcast(MPI_BOTTOM, 1, send_t, 0, MPI_COMM_WORLD);
    ok = ok && a == 0 && b[1] == 0 && d == 0;

    MPI_Type_free(&send_t);
    MPI_Type_free(&recv_t);
    if (!ok) {
        fprintf(stderr, "rank %d: wrong data\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Finalize();
    return 0;
}
