/*
 * fn_table.h - what the generator knows about every MPI function of
 * wrappers/mpi.protos: its name, flags and role-typed parameters. The table
 * itself (mc_fn_table.c) and the ids (mc_fn_ids.h) are generated into the
 * build tree. No MPI types here, so the table is unit-tested without MPI.
 */
#ifndef MPICHECK_FN_TABLE_H
#define MPICHECK_FN_TABLE_H

#include "mc_fn_ids.h"   /* generated: enum mc_fn { MC_FN_MPI_Send, ..., MC_FN_COUNT_ } */

/* Parameter roles (wrappers/README.md explains each). */
typedef enum {
    MC_ROLE_NONE = 0,
    MC_ROLE_COMM, MC_ROLE_COMM_ANY, MC_ROLE_COMM_OUT, MC_ROLE_COMM_FREE, MC_ROLE_COMM_PARENT,
    MC_ROLE_DATATYPE, MC_ROLE_DATATYPE_ANY, MC_ROLE_DATATYPE_OUT, MC_ROLE_DATATYPE_FREE,
    MC_ROLE_DATATYPE_COMMIT,
    MC_ROLE_OP, MC_ROLE_OP_OUT, MC_ROLE_OP_FREE,
    MC_ROLE_GROUP, MC_ROLE_GROUP_OUT, MC_ROLE_GROUP_FREE,
    MC_ROLE_ERRHANDLER_OUT, MC_ROLE_ERRHANDLER_FREE,
    MC_ROLE_WIN, MC_ROLE_WIN_OUT, MC_ROLE_WIN_FREE,
    MC_ROLE_REQ_OUT, MC_ROLE_REQ, MC_ROLE_REQ_ARRAY, MC_ROLE_REQ_VAL,
    MC_ROLE_COUNT,
    MC_ROLE_DEST, MC_ROLE_SOURCE, MC_ROLE_ROOT, MC_ROLE_RANK, MC_ROLE_TARGET,
    MC_ROLE_STAG, MC_ROLE_RTAG,
    MC_ROLE_SBUF, MC_ROLE_RBUF, MC_ROLE_ROOTBUF, MC_ROLE_LEAFBUF, MC_ROLE_BCASTBUF,
    MC_ROLE_ROOTBUFV, MC_ROLE_LEAFBUFV, MC_ROLE_SBUFV, MC_ROLE_RBUFV,
    MC_ROLE_COLLBUF, MC_ROLE_COLLBUF_SUM,   /* a collective's part, never checked as a buffer */
    MC_ROLE_WINBASE,                        /* a window's memory: NULL only with size 0 */
    MC_ROLE_COLOR,                          /* MPI_Comm_split's color: >= 0 or MPI_UNDEFINED */
    MC_ROLE_DIMS,                           /* a Cartesian grid's dimensions: none negative */
    MC_ROLE_COUNT_ /* number of roles; not a role */
} mc_role;

/* How a parameter's value is stored in mc_value (src/util/call.h). */
typedef enum {
    MC_CT_OTHER = 0,  /* not stored (unknown scalar type) */
    MC_CT_INT, MC_CT_COUNT, MC_CT_AINT, MC_CT_OFFSET, MC_CT_DOUBLE, MC_CT_PTR,
    MC_CT_COMM, MC_CT_DATATYPE, MC_CT_OP, MC_CT_GROUP, MC_CT_REQUEST, MC_CT_WIN,
    MC_CT_INFO, MC_CT_ERRHANDLER, MC_CT_FILE, MC_CT_MESSAGE
} mc_ctype;

/* Function flags (the `!flag`s of the prototype list). */
enum {
    MC_FLAG_MANUAL = 1u << 0,
    MC_FLAG_PREINIT = 1u << 1,
    MC_FLAG_POSTFINAL = 1u << 2,
    MC_FLAG_LEGACY = 1u << 3,
    MC_FLAG_PERSISTENT = 1u << 4,
    MC_FLAG_BLOCK = 1u << 5,
    MC_FLAG_ENGINE = 1u << 6,
    MC_FLAG_HELD = 1u << 7,     /* a nonblocking collective the checker may start later (src/coll/held.c) */
    MC_FLAG_SYNCED = 1u << 8    /* MPI_Barrier: no real call once its handshake synchronized every member (coll/hs_p2p.c) */
};

#define MC_MAX_REFS 5

typedef struct {
    const char *name;
    unsigned char role;             /* mc_role */
    unsigned char ctype;            /* mc_ctype */
    signed char ref[MC_MAX_REFS];   /* indices of the role's referenced params; -1 unused */
    unsigned bufrefs;               /* bit b: buffer parameter b references this one */
} mc_param_desc;

typedef struct {
    const char *name;               /* "MPI_Send" */
    unsigned flags;                 /* MC_FLAG_* */
    unsigned char nparams;
    unsigned char has_roles;        /* 1 when some parameter has a role */
    const mc_param_desc *params;
    unsigned long long role_mask;   /* bit (1 << role) for each role present */
    signed char req_out;            /* index of the REQ_OUT parameter, -1: none */
    signed char req_in;             /* index of the REQ or REQ_ARRAY parameter, -1: none */
} mc_fn_desc;

#define MC_ROLE_BIT(r) (1ULL << (r))

/* Indexed by enum mc_fn. Generated. */
extern const mc_fn_desc mc_fn_table[MC_FN_COUNT_];

/* Role name as written in the prototype list ("SBUF"); generated. */
extern const char *const mc_role_names[MC_ROLE_COUNT_];

#endif
