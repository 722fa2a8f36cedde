# A correct program: a ring exchange of Python objects and of a buffer,
# collectives, a nonblocking pair, a duplicated communicator. No finding.
import array
import sys
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
right, left = (rank + 1) % size, (rank - 1) % size
got = comm.sendrecv(rank, dest=right, source=left)
total = comm.allreduce(rank, op=MPI.SUM)
root_says = comm.bcast("hello" if rank == 0 else None, root=0)
buf = array.array("i", [rank] * 4)
into = array.array("i", [0] * 4)
req = comm.Irecv([into, MPI.INT], source=left, tag=7)
comm.Send([buf, MPI.INT], dest=right, tag=7)
req.Wait()
dup = comm.Dup()
dup.Barrier()
dup.Free()
ok = got == left and total == size * (size - 1) // 2 and root_says == "hello" and list(into) == [left] * 4
if not ok:
    print("TEST FAILED: rank %d got %r %r %r %r" % (rank, got, total, root_says, list(into)), file=sys.stderr)
    sys.exit(1)
