/* EXPECT: resource-leak  NP: 2  SAYS: 1+group+created+by+MPI_Comm_group|same+handle+3+times+in+all|was+freed+1+time  ONLY: yes */
/*
 * Checks: every group handle a call returns is a reference the program
 * must free with MPI_Group_free (MPI-4.0 sec. 7.3.2), also when MPI
 * returns a handle the program already holds. Open MPI and MPICH both
 * return the communicator's own group, with one more reference, for each
 * MPI_Comm_group on it: the three calls below give one handle three times.
 * The program frees it once, inside the loop's last turn, and leaks the two
 * other references. The checker kept one entry per handle and let the
 * second call replace the first, so the one free emptied it and the leak
 * went unreported. (Its twin resource_leak_ok_group_references.c frees
 * all three.)
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Group g = MPI_GROUP_NULL;
    int size = 0;
    for (int i = 0; i < 3; i++) {
        MPI_Comm_group(MPI_COMM_WORLD, &g);
        MPI_Group_size(g, &size);
    }
    MPI_Group_free(&g);
    MPI_Finalize();
    return size == 2 ? 0 : 1;
}
