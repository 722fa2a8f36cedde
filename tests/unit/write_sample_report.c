/*
 * write_sample_report.c - writes a job report exercising every shape the
 * schema allows (both severities, folded ranks, frames with and without
 * file/function/module, non-ASCII text), for validate-report-schema.sh.
 *
 *   write_sample_report [--unknown-job] [--sarif] OUT
 *
 * --unknown-job: a job where no rank reached MPI_Init (all header nulls).
 * --sarif: write the SARIF log instead of the JSON report.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "writers.h"

static mc_frame frames_a[] = {
    {"exchange", "src/halo.c", 88, "/work/app", 0x55d0c0a01234},
    {"main", "src/main.c", 12, "/work/app", 0x55d0c0a00abc},
    {"__libc_start_main", NULL, 0, "/lib/x86_64-linux-gnu/libc.so.6", 0x7f3a1c029d90},
};
static mc_frame frames_b[] = {
    {NULL, NULL, 0, NULL, 0x7ffc00001000},
    {"caf\xc3\xa9", "/home/u/\xc3\xa9t\xc3\xa9/\"q\".c", 0, NULL, 0x401000},
};
static mc_arg_text args_send[] = {
    {"buf", "0x7ffd5c1c"}, {"count", "-1"}, {"datatype", "MPI_INT"},
    {"dest", "1"}, {"tag", "0"}, {"comm", "MPI_COMM_WORLD"},
};
static mc_arg_text args_free[] = {{"request", "0x5600aa10"}};

int main(int argc, char **argv)
{
    int unknown = 0, sarif = 0;
    const char *out = NULL;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--unknown-job") == 0)
            unknown = 1;
        else if (strcmp(argv[i], "--sarif") == 0)
            sarif = 1;
        else
            out = argv[i];
    }
    if (out == NULL) {
        fprintf(stderr, "usage: %s [--unknown-job] [--sarif] OUT\n", argv[0]);
        return 2;
    }
    /* String literals in char * fields: the writers only read them. */
    mc_call_text calls_a[] = {
        {0, "MPI_Send", args_send, 6, frames_a, 3},
        {1, "MPI_Send", args_send, 6, frames_a, 2, "spawn 0.1"},  /* a spawned process */
    };
    mc_call_text calls_b[] = {{-1, "MPI_Request_free", args_free, 1, frames_b, 2}};
    mc_call_text calls_c[] = {{-1, NULL, NULL, 0, NULL, 0}};
    int ranks_a[] = {0, 1}, ranks_b[] = {2}, ranks_c[] = {-1, 3};
    mc_finding findings[] = {
        {MC_CLASS_DEADLOCK, MC_SEV_ERROR,
         "ranks 0 and 1 both wait in MPI_Send for a matching \"MPI_Recv\"\nsecond line",
         ranks_a, 2, calls_a, 2, "at rank 1, rank 0 sent a message with tag 1: a tag mismatch?"},
        {MC_CLASS_REQUEST_FREE_ACTIVE, MC_SEV_WARNING, "request freed while active \xe2\x86\x92 !",
         ranks_b, 1, calls_b, 1},
        {MC_CLASS_CALL_ORDER, MC_SEV_ERROR, "MPI call before MPI_Init", ranks_c, 2,
         calls_c, 1},
    };
    char flavor[] = "openmpi", version[] = "4.1.4", mode[] = "strict";
    mc_report_doc doc = {{flavor, version, 4, mode, 10.0}, findings, 3, 1, 4};
    if (unknown) {
        doc.job = (mc_job_info){NULL, NULL, -1, NULL, 0.0};
        doc.saw_job_line = 0;
    }
    int rc = sarif ? mc_report_write_sarif(out, &doc, "0.1.0")
                   : mc_report_write_json(out, &doc, "0.1.0");
    if (rc != 0) {
        perror(out);
        return 1;
    }
    return 0;
}
