/*
 * slurm.h - inside a Slurm allocation, the ranks are started with srun and
 * the MPI plugin the program's MPI library speaks (slurm.c).
 */
#ifndef MPICHECK_LAUNCHER_SLURM_H
#define MPICHECK_LAUNCHER_SLURM_H

#include <stddef.h>
#include "detect.h"

/* When this runs inside a Slurm allocation (SLURM_JOB_ID) and srun can
 * start flavor's processes: the launcher command ("srun --mpi=pmix" for
 * Open MPI, "srun --mpi=pmi2" for MPICH; "srun" when SLURM_MPI_TYPE says
 * which), malloc'd. NULL otherwise; when inside an allocation, note says
 * why mpirun is used instead. */
char *mc_slurm_launcher(mc_mpi_flavor flavor, const char *path_env, char *note, size_t len);

/* srun takes -n where mpirun takes -np: the launcher arguments before
 * PROGRAM (args[0..n-1]) are rewritten in place. */
void mc_slurm_args(char **args, int n);

#endif
