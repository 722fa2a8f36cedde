/*
 * detect.h - finding PROGRAM among the launcher arguments, resolving it like
 * execvp does, and telling which MPI (Open MPI or MPICH) it uses.
 */
#ifndef MPICHECK_LAUNCHER_DETECT_H
#define MPICHECK_LAUNCHER_DETECT_H

#include <stddef.h>
#include "config.h"

/* Index of PROGRAM in args[0..n-1] (the launcher arguments, PROGRAM and its
 * arguments), skipping launcher options and their values; -1 when there is
 * none. *wdir (may be NULL) gets the value of -wdir/--wdir if given. */
int mc_find_program(int n, char *const *args, const char **wdir);

/* Searches PATH (path_env; NULL means the execvp default) for an executable
 * regular file called name. Returns a malloc'd path or NULL. */
char *mc_which(const char *name, const char *path_env);

/* Resolves PROGRAM as execvp does: a name with '/' is used as is (relative
 * to wdir when given), otherwise PATH is searched. Returns a malloc'd path,
 * or NULL with err filled ("program 'foo' not found (searched PATH)"). */
char *mc_resolve_program(const char *prog, const char *wdir, const char *path_env,
                         char *err, size_t errlen);

/* 1 when path starts with the ELF magic, 0 otherwise. */
int mc_is_elf(const char *path);

/* What one line of `ldd` output says: MC_MPI_OPENMPI for libmpi.so.40,
 * libopen-pal/libopen-rte, or any libmpi.so.* under an openmpi directory;
 * MC_MPI_MPICH for libmpich.so* (or libmpi.so.* under an mpich directory);
 * MC_MPI_UNKNOWN otherwise. */
mc_mpi_flavor mc_flavor_from_ldd_line(const char *line);

/* Which MPI a launcher command (e.g. "mpirun") belongs to, from its name and
 * the name of the file it resolves to (realpath): "openmpi"/"orterun"/
 * "prterun" vs "mpich"/"hydra". MC_MPI_UNKNOWN for anything else (srun). */
mc_mpi_flavor mc_launcher_flavor(const char *cmd, const char *path_env);

/* Decides the flavor for the resolved program: requested (from --mpi) when
 * not UNKNOWN and consistent with what ldd shows; from ldd for an ELF file;
 * for a script, from launcher0 (the --launcher command, may be NULL) or the
 * default mpirun. Returns 0, or -1 with err filled. */
int mc_detect_flavor(const char *prog_path, const char *prog_name,
                     mc_mpi_flavor requested, const char *launcher0,
                     const char *path_env, mc_mpi_flavor *out,
                     char *err, size_t errlen);

/* "Open MPI" / "MPICH" for messages. */
const char *mc_flavor_display(mc_mpi_flavor f);

#endif
