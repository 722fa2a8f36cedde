# Both ranks receive first (mpi4py's default MPI_THREAD_MULTIPLE, one
# thread): a deadlock, which the checker must report within its timeout.
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
value = comm.recv(source=1 - rank, tag=0)
comm.send(rank, dest=1 - rank, tag=0)
