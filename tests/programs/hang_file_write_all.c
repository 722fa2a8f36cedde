/* EXPECT: hang  NP: 2  TIMEOUT: 1  RANKS: 0,1 */
/*
 * Checks: both ranks open a file; rank 0 writes it with the collective
 * MPI_File_write_all and then sends rank 1 a message; rank 1 never joins
 * the write and waits for the message.
 *
 * Why it is an error: MPI_File_write_all is collective over the file's
 * group (MPI-4.0 sec. 14.4.1): every process that opened the file must
 * call it. Rank 0 waits inside the write for rank 1, rank 1 in MPI_Recv
 * for rank 0. The collective I/O is not modeled by the handshakes, so the
 * deadlock cannot be proven; the launcher's hang watch reports both calls
 * after --hang-timeout and ends the job. Run plainly, the program hangs.
 * The file is removed right after it is opened. Open MPI's own MPI-IO
 * (OMPIO) lets this write complete without rank 1 (it is still an error);
 * ROMIO, the MPI-IO of MPICH and Open MPI's other choice, needs every
 * member, so the program asks Open MPI for ROMIO (OMPI_MCA_io, read at
 * MPI_Init; MPICH ignores it).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N 65536     /* ints per rank, interleaved in the file: MPI must aggregate */

int main(int argc, char **argv)
{
    int rank;
    static int data[N];
    char name[128];
    MPI_File fh;
    setenv("OMPI_MCA_io", "romio321", 0);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int id = (int)getpid();
    MPI_Bcast(&id, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(name, sizeof name, "/tmp/mpicheck-hang-write-all-%d", id);
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(name);
    /* Each rank's blocks of 16 ints alternate with the other's. */
    MPI_Datatype blocks;
    MPI_Type_vector(N / 16, 16, 32, MPI_INT, &blocks);
    MPI_Type_commit(&blocks);
    MPI_File_set_view(fh, (MPI_Offset)rank * 16 * sizeof(int), MPI_INT, blocks, "native", MPI_INFO_NULL);
    if (rank == 0) {
        MPI_File_write_all(fh, data, N, MPI_INT, MPI_STATUS_IGNORE);
        MPI_Send(data, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_File_close(&fh);
    MPI_Type_free(&blocks);
    MPI_Finalize();
    return 0;
}
