/*
 * spawn_wrappers.c - MPI_Comm_spawn and MPI_Comm_spawn_multiple, written by
 * hand: at the root, the checker may start the children through a small
 * command line that loads the checker into them (src/inter/spawn.c says
 * why and how), so the real call gets other commands and argument lists
 * than the program passed. Everything else is what the generated wrappers
 * do; the values the checks see are the program's own.
 */
#include <mpi.h>
#include "dispatch.h"
#include "inter.h"

MC_EXPORT int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                             MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    if (MC_BYPASS())
        return PMPI_Comm_spawn(command, argv, maxprocs, info, root, comm, intercomm, array_of_errcodes);
    mc_value v[8];
    v[0].p = command;
    v[1].p = argv;
    v[2].i = maxprocs;
    v[3].info = info;
    v[4].i = root;
    v[5].comm = comm;
    v[6].p = intercomm;
    v[7].p = array_of_errcodes;
    mc_call c;
    mc_call_enter(&c, MC_FN_MPI_Comm_spawn, v, __builtin_return_address(0));
    char **cmds, ***argvs;
    int rc = mc_inter_spawn_args(&cmds, &argvs)
        ? PMPI_Comm_spawn(cmds[0], argvs[0], maxprocs, info, root, comm, intercomm, array_of_errcodes)
        : PMPI_Comm_spawn(command, argv, maxprocs, info, root, comm, intercomm, array_of_errcodes);
    mc_call_leave(&c, rc == MPI_SUCCESS);
    return rc;
}

MC_EXPORT int MPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                                      const int array_of_maxprocs[], const MPI_Info array_of_info[],
                                      int root, MPI_Comm comm, MPI_Comm *intercomm,
                                      int array_of_errcodes[])
{
    if (MC_BYPASS())
        return PMPI_Comm_spawn_multiple(count, array_of_commands, array_of_argv, array_of_maxprocs,
                                        array_of_info, root, comm, intercomm, array_of_errcodes);
    mc_value v[9];
    v[0].i = count;
    v[1].p = array_of_commands;
    v[2].p = array_of_argv;
    v[3].p = array_of_maxprocs;
    v[4].p = array_of_info;
    v[5].i = root;
    v[6].comm = comm;
    v[7].p = intercomm;
    v[8].p = array_of_errcodes;
    mc_call c;
    mc_call_enter(&c, MC_FN_MPI_Comm_spawn_multiple, v, __builtin_return_address(0));
    char **cmds, ***argvs;
    int rc = mc_inter_spawn_args(&cmds, &argvs)
        ? PMPI_Comm_spawn_multiple(count, cmds, argvs, array_of_maxprocs, array_of_info, root, comm,
                                   intercomm, array_of_errcodes)
        : PMPI_Comm_spawn_multiple(count, array_of_commands, array_of_argv, array_of_maxprocs,
                                   array_of_info, root, comm, intercomm, array_of_errcodes);
    mc_call_leave(&c, rc == MPI_SUCCESS);
    return rc;
}
