/*
 * callbacks.c - user callbacks that MPI calls from inside an MPI call:
 * attribute copy/delete functions (keyvals) and generalized-request
 * functions. They run user code, so the checker must see the MPI calls they
 * make (a library that caches a private communicator frees it in an attribute
 * delete callback, inside MPI_Comm_free or MPI_Finalize).
 *
 * RATIONALE: inside a wrapper the re-entry guard is up, which hides MPI's own
 * internal calls. The hand-written wrappers below register trampolines
 * instead of the user's functions; a trampoline lowers the guard while the
 * user's function runs and restores it after. The user's functions and extra
 * state travel in a small block passed as the extra state. Predefined or NULL
 * callbacks (MPI_COMM_NULL_COPY_FN may be a null pointer) are passed through.
 *
 * Not covered: user reduction operations and error handler functions, whose
 * signatures carry no extra state to find the user's function from; and
 * callbacks a Fortran binding registers (c.fortran: MPICH's mpif.h binding
 * calls these C functions, then marks the keyval or request Fortran, and
 * MPICH calls the functions with Fortran's arguments: a C trampoline would
 * misread them). They run with the guard up, their MPI calls unchecked.
 */
#include <stdint.h>
#include <stdlib.h>
#include <mpi.h>
#include "dispatch.h"
#include "rank_board.h"
#include "skipped.h"

/* MPI_Keyval_create is deprecated, and wrapping it means calling it. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* Runs user code with the guard down, restoring it afterwards. Meanwhile
 * the thread is in no MPI call as far as the calls it makes and its board
 * slot are concerned: a hang is never read into a callback that computes. */
#define USER_CODE_BEGIN()                                                    \
    int saved_depth_ = mc_depth;                                             \
    mc_call *saved_call_ = mc_cur_call;                                      \
    mc_depth = 0;                                                            \
    mc_cur_call = NULL;                                                      \
    mc_board_back_in(MC_BOARD_USER_CODE)
#define USER_CODE_END()                                                      \
    mc_depth = saved_depth_;                                                 \
    mc_cur_call = saved_call_;                                               \
    mc_board_back_in(saved_call_ ? saved_call_->fn : MC_BOARD_OUTSIDE)

typedef struct {
    void (*copy)(void);     /* the user's functions, cast back before calling */
    void (*del)(void);
    void *extra;
} keyval_block;

#define KEYVAL_TRAMPOLINES(Kind, Handle)                                                         \
    static int copy_##Kind(Handle old, int keyval, void *extra, void *in, void *out, int *flag) \
    {                                                                                         \
        const keyval_block *b = extra;                                                        \
        USER_CODE_BEGIN();                                                                    \
        int rc = ((MPI_##Kind##_copy_attr_function *)b->copy)(old, keyval, b->extra, in, out, flag); \
        USER_CODE_END();                                                                      \
        return rc;                                                                            \
    }                                                                                         \
    static int delete_##Kind(Handle obj, int keyval, void *attr, void *extra)                 \
    {                                                                                         \
        const keyval_block *b = extra;                                                        \
        USER_CODE_BEGIN();                                                                    \
        int rc = ((MPI_##Kind##_delete_attr_function *)b->del)(obj, keyval, attr, b->extra);  \
        USER_CODE_END();                                                                      \
        return rc;                                                                            \
    }

KEYVAL_TRAMPOLINES(Comm, MPI_Comm)
KEYVAL_TRAMPOLINES(Type, MPI_Datatype)
KEYVAL_TRAMPOLINES(Win, MPI_Win)

/* The block lives as long as the keyval may be used by attributes, which can
 * outlive MPI_*_free_keyval: it is never freed (keyvals are few). */
static keyval_block *new_block(void (*copy)(void), void (*del)(void), void *extra)
{
    keyval_block *b = mc_malloc(sizeof *b);
    if (b) {
        b->copy = copy;
        b->del = del;
        b->extra = extra;
    }
    return b;
}

/* One wrapper body for the three keyval constructors. */
#define KEYVAL_WRAPPER(Kind, copy_fn, delete_fn, keyval, extra_state)                           \
    {                                                                                         \
        if (MC_BYPASS())                                                                      \
            return PMPI_##Kind##_create_keyval(copy_fn, delete_fn, keyval, extra_state);      \
        mc_value v[4];                                                                        \
        mc_call c;                                                                            \
        v[0].p = (const void *)(uintptr_t)copy_fn;                                            \
        v[1].p = (const void *)(uintptr_t)delete_fn;                                          \
        v[2].p = keyval;                                                                      \
        v[3].p = extra_state;                                                                 \
        mc_call_enter(&c, MC_FN_MPI_##Kind##_create_keyval, v, __builtin_return_address(0)); \
        keyval_block *b = NULL;                                                               \
        if ((copy_fn || delete_fn) && mc_depth == 1 && !c.fortran)                            \
            b = new_block((void (*)(void))copy_fn, (void (*)(void))delete_fn, extra_state);   \
        int rc = b ? PMPI_##Kind##_create_keyval(copy_fn ? copy_##Kind : copy_fn,             \
                                                 delete_fn ? delete_##Kind : delete_fn,       \
                                                 keyval, b)                                   \
                   : PMPI_##Kind##_create_keyval(copy_fn, delete_fn, keyval, extra_state);    \
        mc_call_leave(&c, rc == MPI_SUCCESS);                                                 \
        return rc;                                                                            \
    }

MC_EXPORT int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                                     MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                                     int *comm_keyval, void *extra_state)
KEYVAL_WRAPPER(Comm, comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval, extra_state)

MC_EXPORT int MPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                                     MPI_Type_delete_attr_function *type_delete_attr_fn,
                                     int *type_keyval, void *extra_state)
KEYVAL_WRAPPER(Type, type_copy_attr_fn, type_delete_attr_fn, type_keyval, extra_state)

MC_EXPORT int MPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                                    MPI_Win_delete_attr_function *win_delete_attr_fn,
                                    int *win_keyval, void *extra_state)
KEYVAL_WRAPPER(Win, win_copy_attr_fn, win_delete_attr_fn, win_keyval, extra_state)

/* MPI_Keyval_create (deprecated) has the communicator callbacks' signatures. */
MC_EXPORT int MPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn,
                                int *keyval, void *extra_state)
{
    if (MC_BYPASS())
        return PMPI_Keyval_create(copy_fn, delete_fn, keyval, extra_state);
    mc_value v[4];
    mc_call c;
    v[0].p = (const void *)(uintptr_t)copy_fn;
    v[1].p = (const void *)(uintptr_t)delete_fn;
    v[2].p = keyval;
    v[3].p = extra_state;
    mc_call_enter(&c, MC_FN_MPI_Keyval_create, v, __builtin_return_address(0));
    keyval_block *b = NULL;
    if ((copy_fn || delete_fn) && mc_depth == 1 && !c.fortran)
        b = new_block((void (*)(void))copy_fn, (void (*)(void))delete_fn, extra_state);
    int rc = b ? PMPI_Comm_create_keyval(copy_fn ? copy_Comm : NULL, delete_fn ? delete_Comm : NULL,
                                         keyval, b)
               : PMPI_Keyval_create(copy_fn, delete_fn, keyval, extra_state);
    mc_call_leave(&c, rc == MPI_SUCCESS);
    return rc;
}

/* Generalized requests: MPI calls free_fn exactly once, so the block goes
 * with it. */
typedef struct {
    MPI_Grequest_query_function *query;
    MPI_Grequest_free_function *free_fn;
    MPI_Grequest_cancel_function *cancel;
    void *extra;
} grequest_block;

static int grequest_query(void *extra, MPI_Status *status)
{
    const grequest_block *b = extra;
    USER_CODE_BEGIN();
    int rc = b->query(b->extra, status);
    USER_CODE_END();
    return rc;
}

static int grequest_free(void *extra)
{
    grequest_block *b = extra;
    USER_CODE_BEGIN();
    int rc = b->free_fn(b->extra);
    USER_CODE_END();
    free(b);
    return rc;
}

static int grequest_cancel(void *extra, int complete)
{
    const grequest_block *b = extra;
    USER_CODE_BEGIN();
    int rc = b->cancel(b->extra, complete);
    USER_CODE_END();
    return rc;
}

MC_EXPORT int MPI_Grequest_start(MPI_Grequest_query_function *query_fn,
                                 MPI_Grequest_free_function *free_fn,
                                 MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                                 MPI_Request *request)
{
    if (MC_BYPASS())
        return PMPI_Grequest_start(query_fn, free_fn, cancel_fn, extra_state, request);
    mc_value v[5];
    mc_call c;
    v[0].p = (const void *)(uintptr_t)query_fn;
    v[1].p = (const void *)(uintptr_t)free_fn;
    v[2].p = (const void *)(uintptr_t)cancel_fn;
    v[3].p = extra_state;
    v[4].p = request;
    mc_call_enter(&c, MC_FN_MPI_Grequest_start, v, __builtin_return_address(0));
    /* All three functions are required by the standard; with one missing,
     * let MPI see exactly what the user passed. */
    grequest_block *b = query_fn && free_fn && cancel_fn && !c.fortran ? mc_malloc(sizeof *b) : NULL;
    int rc;
    if (b) {
        *b = (grequest_block){query_fn, free_fn, cancel_fn, extra_state};
        rc = PMPI_Grequest_start(grequest_query, grequest_free, grequest_cancel, b, request);
        if (rc != MPI_SUCCESS)
            free(b);
    } else {
        rc = PMPI_Grequest_start(query_fn, free_fn, cancel_fn, extra_state, request);
    }
    mc_call_leave(&c, rc == MPI_SUCCESS);
    return rc;
}
