/*
 * args.c - the invalid-argument check: every parameter with a role is checked
 * before the real call, by role, for every MPI function alike.
 *
 * RATIONALE: MPI libraries check some of this themselves, but with error
 * handlers set to MPI_ERRORS_RETURN (or by luck) many bad arguments pass
 * silently, and their own messages never say which line of the program made
 * the call. Precision first: anything the standard allows (MPI_PROC_NULL,
 * wildcards where legal, arguments that are insignificant on this rank, NULL
 * buffers with absolute-address datatypes) must never be reported.
 */
#include <pthread.h>
#include <stdint.h>
#include "checks.h"
#include "objects.h"
#include "report.h"
#include "state.h"

/* Is this rank the root of a rooted collective? */
static int at_root(const mc_obj *comm, int root)
{
    if (comm->is_inter)
        return root == MPI_ROOT;
    return root == comm->rank;
}

/* Whether buffer parameter b is significant in this call (wrappers/README.md). */
int mc_check_buffer_significant(const mc_call *c, int b)
{
    const mc_param_desc *pd = &c->desc->params[b];
    const void *buf = c->vals[b].p;
    int root = 0;
    mc_obj *comm = NULL;
    switch (pd->role) {
    case MC_ROLE_SBUF:
    case MC_ROLE_SBUFV:
        return buf != MPI_IN_PLACE;
    case MC_ROLE_RBUF:
    case MC_ROLE_RBUFV:
        return 1;
    case MC_ROLE_ROOTBUF: case MC_ROLE_LEAFBUF: case MC_ROLE_BCASTBUF:
        root = c->vals[pd->ref[2]].i;
        comm = mc_comm_find(c->vals[pd->ref[3]].comm);
        break;
    case MC_ROLE_ROOTBUFV: case MC_ROLE_LEAFBUFV:
        root = c->vals[pd->ref[3]].i;
        comm = mc_comm_find(c->vals[pd->ref[4]].comm);
        break;
    default:
        return 0;
    }
    if (!comm)
        return 0;   /* unknown communicator: cannot tell, so do not check */
    switch (pd->role) {
    case MC_ROLE_ROOTBUF: case MC_ROLE_ROOTBUFV:
        return at_root(comm, root) && buf != MPI_IN_PLACE;
    case MC_ROLE_LEAFBUF: case MC_ROLE_LEAFBUFV:
        if (comm->is_inter)
            return root >= 0;
        return buf != MPI_IN_PLACE;
    default: /* BCASTBUF */
        return !(comm->is_inter && root == MPI_PROC_NULL);
    }
}

#define BUFFER_ROLE_BITS (MC_ROLE_BIT(MC_ROLE_SBUF) | MC_ROLE_BIT(MC_ROLE_RBUF) \
    | MC_ROLE_BIT(MC_ROLE_ROOTBUF) | MC_ROLE_BIT(MC_ROLE_LEAFBUF) | MC_ROLE_BIT(MC_ROLE_BCASTBUF) \
    | MC_ROLE_BIT(MC_ROLE_ROOTBUFV) | MC_ROLE_BIT(MC_ROLE_LEAFBUFV) | MC_ROLE_BIT(MC_ROLE_SBUFV) \
    | MC_ROLE_BIT(MC_ROLE_RBUFV))

static int is_buffer_role(int role)
{
    return role >= MC_ROLE_SBUF && role <= MC_ROLE_RBUFV;
}

/* A count or datatype referenced by buffers is checked only when one of those
 * buffers is significant; sig has a bit per significant buffer. */
static int param_significant(const mc_call *c, int i, unsigned sig)
{
    unsigned refs = c->desc->params[i].bufrefs;
    return refs == 0 || (refs & sig) != 0;
}

static long long int_value(const mc_call *c, int i)
{
    switch (c->desc->params[i].ctype) {
    case MC_CT_COUNT: return (long long)c->vals[i].c;
    case MC_CT_AINT: return (long long)c->vals[i].a;
    case MC_CT_OFFSET: return (long long)c->vals[i].o;
    default: return c->vals[i].i;
    }
}

static void check_rank(mc_call *c, int i)
{
    const mc_param_desc *pd = &c->desc->params[i];
    int v = c->vals[i].i;
    int role = pd->role;
    int size;
    const char *what;
    if (role == MC_ROLE_TARGET) {
        mc_obj *w = mc_obj_find(MC_OBJ_WIN, MC_BITS(c->vals[pd->ref[0]].win));
        if (!w || v == MPI_PROC_NULL || (v >= 0 && v < w->size))
            return;
        mc_report_arg(c, i, "is %d, not a rank of the window's group (size %d) nor MPI_PROC_NULL", v, w->size);
        return;
    }
    mc_obj *comm = mc_comm_find(c->vals[pd->ref[0]].comm);
    if (!comm)
        return;
    int remote = comm->is_inter && role != MC_ROLE_RANK;
    size = remote ? comm->remote_size : comm->size;
    what = remote ? "the remote group of the intercommunicator" : "the communicator";
    if (v >= 0 && v < size)
        return;
    switch (role) {
    case MC_ROLE_DEST:
        if (v == MPI_PROC_NULL)
            return;
        if (v == MPI_ANY_SOURCE) {
            mc_report_arg(c, i, "is MPI_ANY_SOURCE, which only a receive may use");
            return;
        }
        break;
    case MC_ROLE_SOURCE:
        if (v == MPI_PROC_NULL || v == MPI_ANY_SOURCE)
            return;
        break;
    case MC_ROLE_ROOT:
        if (comm->is_inter && (v == MPI_ROOT || v == MPI_PROC_NULL))
            return;
        break;
    default:
        break;
    }
    mc_report_arg(c, i, "is %d, not a rank of %s (size %d)%s", v, what, size,
                  role == MC_ROLE_DEST || role == MC_ROLE_SOURCE ? " nor MPI_PROC_NULL" : "");
}

static void check_tag(mc_call *c, int i)
{
    int tag = c->vals[i].i;
    if (tag >= 0 && tag <= mc_st.tag_ub)
        return;
    if (tag == MPI_ANY_TAG) {
        if (c->desc->params[i].role == MC_ROLE_RTAG)
            return;
        mc_report_arg(c, i, "is MPI_ANY_TAG, which only a receive or probe may use");
        return;
    }
    mc_report_arg(c, i, "is %d, outside the valid tags 0..%d (MPI_TAG_UB)", tag, mc_st.tag_ub);
}

static void check_datatype(mc_call *c, int i, int need_commit)
{
    MPI_Datatype t = c->vals[i].type;
    if (t == MPI_DATATYPE_NULL) {
        mc_report_arg(c, i, "is MPI_DATATYPE_NULL");
        return;
    }
    if (!need_commit)
        return;
    mc_obj *o = mc_obj_find(MC_OBJ_DATATYPE, MC_BITS(t));
    if (o && !o->committed)
        mc_report_arg_origin(c, i, &o->origin, "is a derived datatype that was never committed "
                             "(call MPI_Type_commit before using it to communicate)");
}

/* Predefined, asked of MPI itself: the object table does not know every
 * derived type (MPI_Type_get_contents returns some, MPICH aliases them).
 * Rare path: only for NULL buffers with data. On any doubt: not predefined. */
static int is_predefined(MPI_Datatype t)
{
#if MPI_VERSION >= 4
    /* MPICH 4.0 refuses the int version for types built with _c constructors. */
    MPI_Count ni, na, nl, nt;
    int combiner;
    if (PMPI_Type_get_envelope_c(t, &ni, &na, &nl, &nt, &combiner) != MPI_SUCCESS)
        return 0;
#else
    int ni, na, nt, combiner;
    if (PMPI_Type_get_envelope(t, &ni, &na, &nt, &combiner) != MPI_SUCCESS)
        return 0;
#endif
    return combiner == MPI_COMBINER_NAMED;
}

/* NULL with count > 0 is only certainly wrong for a predefined datatype: a
 * derived one may hold absolute addresses and be used with MPI_BOTTOM. */
static void check_null_buffer(mc_call *c, int b)
{
    const mc_param_desc *pd = &c->desc->params[b];
    if (c->vals[b].p != NULL || pd->role >= MC_ROLE_ROOTBUFV)
        return;
    long long count = int_value(c, pd->ref[0]);
    MPI_Datatype t = c->vals[pd->ref[1]].type;
    if (count <= 0 || t == MPI_DATATYPE_NULL || mc_obj_find(MC_OBJ_DATATYPE, MC_BITS(t))
        || !is_predefined(t))
        return;
    mc_report_arg(c, b, "is NULL but %s is %lld elements of a predefined datatype",
                  c->desc->params[pd->ref[0]].name, count);
}

/* A Cartesian grid's dimensions (MPI_Cart_create, MPI_Dims_create): a
 * number of processes per dimension, never negative (MPI_Dims_create's
 * 0 asks it to choose one). The first negative entry is reported. */
static void check_dims(mc_call *c, int i)
{
    const int *dims = c->vals[i].p;
    long long n = int_value(c, c->desc->params[i].ref[0]);
    if (!dims || n <= 0)
        return;
    for (long long k = 0; k < n && k < 4096; k++)
        if (dims[k] < 0) {
            mc_report_arg(c, i, "has %s[%lld] = %d: the number of processes in a dimension "
                          "cannot be negative", c->desc->params[i].name, k, dims[k]);
            return;
        }
}

/* MPI_DATATYPE_NULL in a send or receive where every significant buffer
 * using datatype i has a count of 0 (MPI_Send(NULL, 0, MPI_DATATYPE_NULL,
 * ...)): no data, so no type. The standard does not say whether that is
 * allowed; MPICH accepts it in point-to-point calls (pmodels/mpich#4659;
 * its test part/nonblocking_pready does it), Open MPI 4.1 returns
 * MPI_ERR_TYPE. A check that cannot be sure does not call it an error, and
 * where MPI refuses it, MPI's own error says so. Collectives stay reported:
 * MPICH 4.0's MPI_Bcast fails an internal assertion on it. Buffers with
 * count arrays (the v-variants) are not looked into. */
static int null_type_no_data(const mc_call *c, int i, unsigned sig)
{
    unsigned refs = c->desc->params[i].bufrefs & sig;
    if (!refs || !(c->desc->role_mask & (MC_ROLE_BIT(MC_ROLE_DEST) | MC_ROLE_BIT(MC_ROLE_SOURCE))))
        return 0;
    for (int b = 0; b < 32; b++) {
        if (!(refs & (1u << b)))
            continue;
        const mc_param_desc *pb = &c->desc->params[b];
        if (pb->role >= MC_ROLE_ROOTBUFV || c->desc->params[pb->ref[0]].role != MC_ROLE_COUNT
            || int_value(c, pb->ref[0]) != 0)
            return 0;
    }
    return 1;
}

/* Whether an earlier significant DATATYPE parameter of c holds the same type. */
static int same_type_before(const mc_call *c, int i, unsigned sig)
{
    for (int j = 0; j < i; j++)
        if (c->desc->params[j].role == MC_ROLE_DATATYPE && param_significant(c, j, sig)
            && c->vals[j].type == c->vals[i].type)
            return 1;
    return 0;
}

/* The roles the loop below checks (buffers are checked by role too). */
#define CHECKED_ROLES (MC_ROLE_BIT(MC_ROLE_COMM) | MC_ROLE_BIT(MC_ROLE_DATATYPE) \
    | MC_ROLE_BIT(MC_ROLE_DATATYPE_ANY) | MC_ROLE_BIT(MC_ROLE_OP) | MC_ROLE_BIT(MC_ROLE_GROUP) \
    | MC_ROLE_BIT(MC_ROLE_WIN) | MC_ROLE_BIT(MC_ROLE_COUNT) | MC_ROLE_BIT(MC_ROLE_DEST) \
    | MC_ROLE_BIT(MC_ROLE_SOURCE) | MC_ROLE_BIT(MC_ROLE_ROOT) | MC_ROLE_BIT(MC_ROLE_RANK) \
    | MC_ROLE_BIT(MC_ROLE_TARGET) | MC_ROLE_BIT(MC_ROLE_STAG) | MC_ROLE_BIT(MC_ROLE_RTAG) \
    | MC_ROLE_BIT(MC_ROLE_WINBASE) | MC_ROLE_BIT(MC_ROLE_COLOR) | MC_ROLE_BIT(MC_ROLE_DIMS) \
    | BUFFER_ROLE_BITS)

/* Per function, the parameters whose role is checked: made once, so that
 * the trivial calls a program makes millions of times (MPI_Type_size,
 * MPI_Comm_rank in a loop) visit only those, without a switch over every
 * parameter (MPICH's datatype tests ran 2.5 to 3 times longer, most of it
 * here and around it). */
static uint32_t checked_params[MC_FN_COUNT_];
static uint32_t buffer_params[MC_FN_COUNT_];
static int plans_made;
static pthread_once_t plans_once = PTHREAD_ONCE_INIT;

static void plan_of(const mc_fn_desc *d, uint32_t *checked, uint32_t *buffers)
{
    int n = d->nparams < 32 ? d->nparams : 32;
    *checked = *buffers = 0;
    for (int i = 0; i < n; i++) {
        if (MC_ROLE_BIT(d->params[i].role) & CHECKED_ROLES)
            *checked |= 1u << i;
        if (is_buffer_role(d->params[i].role))
            *buffers |= 1u << i;
    }
}

static void make_plans(void)
{
    for (int fn = 0; fn < MC_FN_COUNT_; fn++)
        plan_of(&mc_fn_table[fn], &checked_params[fn], &buffer_params[fn]);
    __atomic_store_n(&plans_made, 1, __ATOMIC_RELEASE);
}

void mc_check_args(mc_call *c)
{
    const mc_fn_desc *d = c->desc;
    unsigned sig = 0;
    if (!__atomic_load_n(&plans_made, __ATOMIC_ACQUIRE))
        pthread_once(&plans_once, make_plans);
    uint32_t todo, buffers;
    if (c->fn >= 0 && c->fn < MC_FN_COUNT_ && d == &mc_fn_table[c->fn]) {
        todo = checked_params[c->fn];
        buffers = buffer_params[c->fn];
    } else {
        plan_of(d, &todo, &buffers);
    }
    MC_LOCK();
    /* Only the planned parameters are visited, lowest first (the checks
     * below read sig of the buffers, and same_type_before the order). */
    for (uint32_t left = buffers; left; left &= left - 1) {
        int b = __builtin_ctz(left);
        if (mc_check_buffer_significant(c, b))
            sig |= 1u << b;
    }
    for (; todo; todo &= todo - 1) {
        int i = __builtin_ctz(todo);
        /* The two roles of the calls made most often, tested before the
         * switch: its indirect jump cost more than the checks themselves. */
        int role = d->params[i].role;
        if (role == MC_ROLE_DATATYPE_ANY) {
            check_datatype(c, i, 0);
            continue;
        }
        if (role == MC_ROLE_COMM) {
            if (c->vals[i].comm == MPI_COMM_NULL)
                mc_report_arg(c, i, "is MPI_COMM_NULL");
            continue;
        }
        switch (role) {
        case MC_ROLE_DATATYPE:
            /* One report per datatype and call: Sendrecv with the same
             * uncommitted type on both sides is one mistake. */
            if (param_significant(c, i, sig) && !same_type_before(c, i, sig)
                && !(c->vals[i].type == MPI_DATATYPE_NULL && null_type_no_data(c, i, sig)))
                check_datatype(c, i, 1);
            break;
        case MC_ROLE_OP:
            if (c->vals[i].op == MPI_OP_NULL)
                mc_report_arg(c, i, "is MPI_OP_NULL");
            break;
        case MC_ROLE_GROUP:
            if (c->vals[i].group == MPI_GROUP_NULL)
                mc_report_arg(c, i, "is MPI_GROUP_NULL");
            break;
        case MC_ROLE_WIN:
            if (c->vals[i].win == MPI_WIN_NULL)
                mc_report_arg(c, i, "is MPI_WIN_NULL");
            break;
        case MC_ROLE_COUNT:
            if (param_significant(c, i, sig) && int_value(c, i) < 0)
                mc_report_arg(c, i, "is negative (%lld)", int_value(c, i));
            break;
        case MC_ROLE_DEST: case MC_ROLE_SOURCE: case MC_ROLE_ROOT:
        case MC_ROLE_RANK: case MC_ROLE_TARGET:
            check_rank(c, i);
            break;
        case MC_ROLE_STAG: case MC_ROLE_RTAG:
            check_tag(c, i);
            break;
        case MC_ROLE_COLOR:
            if (c->vals[i].i < 0 && c->vals[i].i != MPI_UNDEFINED)
                mc_report_arg(c, i, "is %d: a color must be non-negative or MPI_UNDEFINED "
                              "(MPI-4.0 sec. 7.4.2)", c->vals[i].i);
            break;
        case MC_ROLE_DIMS:
            check_dims(c, i);
            break;
        case MC_ROLE_WINBASE:
            /* Other processes' MPI_Put and MPI_Get reach size bytes at base:
             * with NULL there is no such memory (Open MPI's one-sided copies
             * then fail with EFAULT and retry forever). */
            if (c->vals[i].p == NULL && int_value(c, d->params[i].ref[0]) > 0)
                mc_report_arg(c, i, "is NULL but %s is %lld bytes: the window has no memory there",
                              d->params[d->params[i].ref[0]].name, int_value(c, d->params[i].ref[0]));
            break;
        default:
            if (is_buffer_role(d->params[i].role) && (sig & (1u << i)))
                check_null_buffer(c, i);
            break;
        }
    }
    MC_UNLOCK();
}
