/*
 * slurm.c - the launcher inside a Slurm allocation (salloc, sbatch): the
 * ranks are started with srun, as Slurm sites expect, with the MPI plugin
 * the program's library can talk to (Open MPI: PMIx; MPICH: PMI-2), when
 * this Slurm has it. Otherwise mpirun, which also honors the allocation.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm.h"

/* Whether `srun --mpi=list` names plugin (Slurm 22 prints "\tpmix", later
 * ones "srun: pmix"). */
static int srun_has_plugin(const char *srun, const char *plugin)
{
    char cmd[4096], line[256];
    snprintf(cmd, sizeof cmd, "'%s' --mpi=list 2>&1", srun);
    FILE *p = popen(cmd, "r");
    int found = 0;
    if (!p)
        return 0;
    while (fgets(line, sizeof line, p)) {
        char *w = line;
        if (strncmp(w, "srun:", 5) == 0)
            w += 5;
        w += strspn(w, " \t");
        w[strcspn(w, " \t\r\n")] = '\0';
        if (strcmp(w, plugin) == 0)
            found = 1;
    }
    pclose(p);
    return found;
}

char *mc_slurm_launcher(mc_mpi_flavor flavor, const char *path_env, char *note, size_t len)
{
    const char *job = getenv("SLURM_JOB_ID");
    note[0] = '\0';
    if (!job || !*job)
        return NULL;
    char *srun = mc_which("srun", path_env);
    if (!srun) {
        snprintf(note, len, "inside Slurm job %s, but srun is not in PATH: starting the ranks with mpirun", job);
        return NULL;
    }
    const char *type = getenv("SLURM_MPI_TYPE");
    const char *plugin = flavor == MC_MPI_MPICH ? "pmi2" : "pmix";
    char *cmd = NULL;
    /* --kill-on-bad-exit: a rank that crashes ends the step, as mpirun
     * ends its job; without it the others would wait for it until the
     * allocation's time runs out. */
    if (type && *type) {
        cmd = strdup("srun --kill-on-bad-exit=1");   /* srun reads SLURM_MPI_TYPE itself */
        snprintf(note, len, "inside Slurm job %s: starting the ranks with 'srun --kill-on-bad-exit=1' "
                 "(SLURM_MPI_TYPE=%s; --launcher=CMD picks another)", job, type);
    } else if (srun_has_plugin(srun, plugin)) {
        if (asprintf(&cmd, "srun --kill-on-bad-exit=1 --mpi=%s", plugin) < 0)
            cmd = NULL;
        snprintf(note, len, "inside Slurm job %s: starting the ranks with 'srun --kill-on-bad-exit=1 --mpi=%s' "
                 "(--launcher=CMD picks another)", job, plugin);
    } else {
        snprintf(note, len, "inside Slurm job %s, but this srun has no %s plugin (srun --mpi=list), which %s "
                 "needs: starting the ranks with mpirun", job, plugin, mc_flavor_display(flavor));
    }
    free(srun);
    return cmd;
}

void mc_slurm_args(char **args, int n)
{
    static char dash_n[] = "-n";
    for (int i = 0; i < n; i++)
        if (strcmp(args[i], "-np") == 0 || strcmp(args[i], "--np") == 0)
            args[i] = dash_n;
}
