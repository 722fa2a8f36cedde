# An unsafe exchange: both ranks send to each other before either
# receives. It completes only because MPI buffers the small messages; with
# synchronous sends both would wait forever. mpi4py asks for
# MPI_THREAD_MULTIPLE, yet the script runs no thread of its own, so strict
# mode finds the potential deadlock (a warning: the run ends normally).
from mpi4py import MPI

comm = MPI.COMM_WORLD
other = 1 - comm.Get_rank()
comm.send({"from": comm.Get_rank()}, dest=other, tag=3)
got = comm.recv(source=other, tag=3)
assert got == {"from": other}, got
