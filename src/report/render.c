/*
 * render.c - argument values as a user wants to read them in a report:
 * MPI_COMM_WORLD rather than 0x44000000, MPI_ANY_SOURCE rather than -2,
 * "comm#3 (size 2)" for a communicator the program created.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "skipped.h"

__thread int mc_rendering;

typedef struct { uint64_t bits; const char *name; } named_handle;

static char *dupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *dupf(const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return mc_strdup(buf);
}

static mc_handle_namer namer;

static int (*mpi_up)(void);

void mc_render_set_mpi_up(int (*fn)(void))
{
    mpi_up = fn;
}

void mc_render_set_namer(const mc_handle_namer *n)
{
    namer = *n;
}

static char *render_comm(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL) return mc_strdup("MPI_COMM_NULL");
    if (comm == MPI_COMM_WORLD) return mc_strdup("MPI_COMM_WORLD");
    if (comm == MPI_COMM_SELF) return mc_strdup("MPI_COMM_SELF");
    char *s = namer.comm ? namer.comm(comm) : NULL;
    return s ? s : dupf("0x%llx (unknown communicator)", (unsigned long long)MC_BITS(comm));
}

static char *render_type(MPI_Datatype t)
{
    if (t == MPI_DATATYPE_NULL) return mc_strdup("MPI_DATATYPE_NULL");
    char *s = namer.datatype ? namer.datatype(t) : NULL;
    if (s)
        return s;
    /* Predefined types know their own names; asking needs MPI to be up. */
    if (mpi_up && mpi_up()) {
        char name[MPI_MAX_OBJECT_NAME];
        int len = 0;
        mc_rendering++;
        int rc = PMPI_Type_get_name(t, name, &len);
        mc_rendering--;
        if (rc == MPI_SUCCESS && len > 0)
            return mc_strdup(name);
    }
    return dupf("0x%llx", (unsigned long long)MC_BITS(t));
}

static char *render_op(MPI_Op op)
{
    static const struct { MPI_Op op; const char *name; } ops[] = {
        {MPI_MAX, "MPI_MAX"}, {MPI_MIN, "MPI_MIN"}, {MPI_SUM, "MPI_SUM"}, {MPI_PROD, "MPI_PROD"},
        {MPI_LAND, "MPI_LAND"}, {MPI_BAND, "MPI_BAND"}, {MPI_LOR, "MPI_LOR"}, {MPI_BOR, "MPI_BOR"},
        {MPI_LXOR, "MPI_LXOR"}, {MPI_BXOR, "MPI_BXOR"}, {MPI_MAXLOC, "MPI_MAXLOC"},
        {MPI_MINLOC, "MPI_MINLOC"}, {MPI_REPLACE, "MPI_REPLACE"}, {MPI_NO_OP, "MPI_NO_OP"},
    };
    if (op == MPI_OP_NULL) return mc_strdup("MPI_OP_NULL");
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (ops[i].op == op)
            return mc_strdup(ops[i].name);
    char *s = namer.op ? namer.op(op) : NULL;
    return s ? s : dupf("0x%llx", (unsigned long long)MC_BITS(op));
}

static char *render_int(const mc_param_desc *pd, int v)
{
    switch (pd->role) {
    case MC_ROLE_DEST: case MC_ROLE_SOURCE: case MC_ROLE_ROOT: case MC_ROLE_TARGET:
        if (v == MPI_PROC_NULL) return mc_strdup("MPI_PROC_NULL");
        if (v == MPI_ANY_SOURCE) return mc_strdup("MPI_ANY_SOURCE");
        if (v == MPI_ROOT) return mc_strdup("MPI_ROOT");
        break;
    case MC_ROLE_STAG: case MC_ROLE_RTAG:
        if (v == MPI_ANY_TAG) return mc_strdup("MPI_ANY_TAG");
        break;
    default:
        break;
    }
    return dupf("%d", v);
}

static char *render_ptr(const mc_param_desc *pd, const void *p)
{
    /* The "ignore" constants by name: Open MPI's are NULL, MPICH's are
     * small integers, and "status=0x1" says nothing. */
    if (pd->name && strcmp(pd->name, "status") == 0 && p == (const void *)MPI_STATUS_IGNORE)
        return mc_strdup("MPI_STATUS_IGNORE");
    if (pd->name && strcmp(pd->name, "array_of_statuses") == 0 && p == (const void *)MPI_STATUSES_IGNORE)
        return mc_strdup("MPI_STATUSES_IGNORE");
    if (pd->name && strcmp(pd->name, "array_of_errcodes") == 0 && p == (const void *)MPI_ERRCODES_IGNORE)
        return mc_strdup("MPI_ERRCODES_IGNORE");
    if (p == NULL) return mc_strdup("NULL");
    if (pd->role >= MC_ROLE_SBUF && pd->role <= MC_ROLE_COLLBUF_SUM && p == MPI_IN_PLACE)
        return mc_strdup("MPI_IN_PLACE");
    return dupf("%p", p);
}

static char *render_handle(uint64_t bits, int is_null, const char *null_name)
{
    if (is_null) return mc_strdup(null_name);
    return dupf("0x%llx", (unsigned long long)bits);
}

char *mc_render_value(const mc_param_desc *pd, const mc_value *v)
{
    switch (pd->ctype) {
    case MC_CT_INT: return render_int(pd, v->i);
    case MC_CT_COUNT: return dupf("%lld", (long long)v->c);
    case MC_CT_AINT: return dupf("%lld", (long long)v->a);
    case MC_CT_OFFSET: return dupf("%lld", (long long)v->o);
    case MC_CT_DOUBLE: return dupf("%g", v->d);
    case MC_CT_PTR: return render_ptr(pd, v->p);
    case MC_CT_COMM: return render_comm(v->comm);
    case MC_CT_DATATYPE: return render_type(v->type);
    case MC_CT_OP: return render_op(v->op);
    case MC_CT_GROUP:
        if (v->group == MPI_GROUP_EMPTY) return mc_strdup("MPI_GROUP_EMPTY");
        return render_handle(MC_BITS(v->group), v->group == MPI_GROUP_NULL, "MPI_GROUP_NULL");
    case MC_CT_REQUEST:
        return render_handle(MC_BITS(v->req), v->req == MPI_REQUEST_NULL, "MPI_REQUEST_NULL");
    case MC_CT_WIN: return render_handle(MC_BITS(v->win), v->win == MPI_WIN_NULL, "MPI_WIN_NULL");
    case MC_CT_INFO:
        if (v->info == MPI_INFO_NULL) return mc_strdup("MPI_INFO_NULL");
        if (v->info == MPI_INFO_ENV) return mc_strdup("MPI_INFO_ENV");
        return render_handle(MC_BITS(v->info), 0, "");
    case MC_CT_ERRHANDLER:
        if (v->eh == MPI_ERRORS_ARE_FATAL) return mc_strdup("MPI_ERRORS_ARE_FATAL");
        if (v->eh == MPI_ERRORS_RETURN) return mc_strdup("MPI_ERRORS_RETURN");
        return render_handle(MC_BITS(v->eh), v->eh == MPI_ERRHANDLER_NULL, "MPI_ERRHANDLER_NULL");
    case MC_CT_FILE: return render_handle(MC_BITS(v->file), v->file == MPI_FILE_NULL, "MPI_FILE_NULL");
    case MC_CT_MESSAGE:
        if (v->msg == MPI_MESSAGE_NO_PROC) return mc_strdup("MPI_MESSAGE_NO_PROC");
        return render_handle(MC_BITS(v->msg), v->msg == MPI_MESSAGE_NULL, "MPI_MESSAGE_NULL");
    default:
        return mc_strdup("?");
    }
}

char *mc_render_value_as_made(const mc_param_desc *pd, const mc_value *v, uint32_t id)
{
    uint64_t bits;
    switch (pd->ctype) {
    case MC_CT_COMM: bits = MC_BITS(v->comm); break;
    case MC_CT_DATATYPE: bits = MC_BITS(v->type); break;
    case MC_CT_OP: bits = MC_BITS(v->op); break;
    default: id = 0; bits = 0; break;
    }
    char *s = id && namer.as_made ? namer.as_made(pd->ctype, bits, id) : NULL;
    return s ? s : mc_render_value(pd, v);
}
