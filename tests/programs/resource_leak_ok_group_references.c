/* EXPECT: OK  NP: 2 */
/*
 * Checks: the twin of resource_leak_group_references.c. One group handle
 * handed out several times (MPI_Comm_group twice on MPI_COMM_WORLD,
 * MPI_Comm_group and MPI_Win_get_group of a window over it, in Open MPI and
 * MPICH all one handle or not, as the library likes) and freed once for
 * each time it was handed out, in an order other than the one it was
 * handed out in, while the other references are still used: no finding.
 * Counting references must neither report a leak here nor take a group
 * still held for freed.
 */
#include <stddef.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Group a, b, c, d;
    MPI_Win win;
    int *buf = NULL, size = 0, result = MPI_UNEQUAL;
    MPI_Comm_group(MPI_COMM_WORLD, &a);
    MPI_Comm_group(MPI_COMM_WORLD, &b);
    MPI_Group_free(&a);
    MPI_Group_size(b, &size);
    /* MPI_Win_allocate: Open MPI 4.1 has no one-sided component for
     * MPI_Win_create under the harness's settings (resource_leak_ok_handles.c). */
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &buf, &win);
    MPI_Win_get_group(win, &c);
    MPI_Comm_group(MPI_COMM_WORLD, &d);
    MPI_Group_compare(c, d, &result);
    MPI_Group_free(&d);
    MPI_Win_free(&win);
    MPI_Group_compare(b, c, &result);
    MPI_Group_free(&b);
    MPI_Group_free(&c);
    MPI_Finalize();
    return size == 2 && result != MPI_UNEQUAL ? 0 : 1;
}
