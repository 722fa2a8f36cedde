/* EXPECT: OK  NP: 2 */
/*
 * Checks: objects freed by user callbacks that MPI itself invokes: attribute
 * delete callbacks (on Comm_free, Type_free, Comm_delete_attr and, at
 * MPI_Finalize, on MPI_COMM_SELF), attribute copy callbacks, and a
 * generalized request's free function. Every object created is freed exactly
 * once; no finding expected.
 *
 *  - The classic library pattern (MPI-4.0 sec. 7.7, "Caching"): a library
 *    caches a private communicator as an attribute of the user's communicator
 *    and frees it in the attribute's delete callback, which MPI calls from
 *    MPI_Comm_free of the user's communicator.
 *  - The same with a datatype cached on a datatype (MPI_Type_free runs the
 *    delete callback), and with the copy callback duplicating the cached
 *    datatype when the communicator is duplicated (every copy is freed by its
 *    own delete callback).
 *  - MPI-4.0 sec. 11.2.4 ("Allowing User Functions at Process Termination"):
 *    MPI_Finalize first deletes the attributes of MPI_COMM_SELF, as if by
 *    MPI_Comm_free, and MPI is fully usable inside those callbacks; the
 *    callback frees a communicator, an op, a datatype and an error handler.
 *  - A generalized request whose free_fn releases the datatype held in its
 *    extra_state (free_fn runs inside the MPI_Wait that completes it).
 */
#include <mpi.h>
#include <stdio.h>

static int rank, fails;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "rank %d: check failed at line %d: %s\n", \
                                          rank, __LINE__, #c); fails++; } } while (0)

/* --- communicator cached on a communicator */
static int free_cached_comm(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm; (void)keyval; (void)extra;
    MPI_Comm *inner = val;
    MPI_Comm_free(inner);
    return MPI_SUCCESS;
}

/* --- datatype cached on a communicator: copied on Comm_dup, freed on Comm_free */
static MPI_Datatype cached_types[4];
static int ncached;

static int copy_cached_type(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)old; (void)keyval; (void)extra;
    MPI_Datatype *src = in, *dst = &cached_types[ncached++];
    MPI_Type_dup(*src, dst);
    *(MPI_Datatype **)out = dst;
    *flag = 1;
    return MPI_SUCCESS;
}

static int free_cached_type(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm; (void)keyval; (void)extra;
    MPI_Type_free((MPI_Datatype *)val);
    return MPI_SUCCESS;
}

/* --- datatype cached on a datatype */
static int free_type_on_type(MPI_Datatype t, int keyval, void *val, void *extra)
{
    (void)t; (void)keyval; (void)extra;
    MPI_Type_free((MPI_Datatype *)val);
    return MPI_SUCCESS;
}

/* --- cleanup at MPI_Finalize through MPI_COMM_SELF */
static struct {
    MPI_Comm comm;
    MPI_Op op;
    MPI_Datatype type;
    MPI_Errhandler eh;
} at_exit;
static int cleanup_ran;

static int cleanup_at_finalize(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm; (void)keyval; (void)val; (void)extra;
    MPI_Comm_free(&at_exit.comm);
    MPI_Op_free(&at_exit.op);
    MPI_Type_free(&at_exit.type);
    MPI_Errhandler_free(&at_exit.eh);
    cleanup_ran = 1;
    return MPI_SUCCESS;
}

static void max_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        if (((int *)in)[i] > ((int *)inout)[i])
            ((int *)inout)[i] = ((int *)in)[i];
}

static void quiet_eh(MPI_Comm *comm, int *code, ...)
{
    (void)comm; (void)code;
}

/* --- generalized request owning a datatype */
static MPI_Datatype greq_type;

static int gq(void *extra, MPI_Status *st)
{
    (void)extra;
    MPI_Status_set_elements(st, MPI_BYTE, 0);
    MPI_Status_set_cancelled(st, 0);
    st->MPI_SOURCE = MPI_UNDEFINED;
    st->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}

static int gfree(void *extra)
{
    MPI_Type_free((MPI_Datatype *)extra);
    return MPI_SUCCESS;
}

static int gcancel(void *extra, int complete)
{
    (void)extra; (void)complete;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    /* 1. a private communicator cached on the user's communicator */
    {
        static MPI_Comm inner;
        MPI_Comm user;
        int kv;
        MPI_Comm_dup(MPI_COMM_WORLD, &user);
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_cached_comm, &kv, NULL);
        MPI_Comm_dup(user, &inner);                  /* freed by free_cached_comm */
        MPI_Comm_set_attr(user, kv, &inner);
        MPI_Barrier(inner);
        MPI_Comm_free(&user);                        /* runs free_cached_comm */
        CHECK(inner == MPI_COMM_NULL);
        MPI_Comm_free_keyval(&kv);
    }

    /* 2. a datatype cached on a communicator, copied by Comm_dup */
    {
        MPI_Comm a, b;
        int kv;
        MPI_Comm_dup(MPI_COMM_WORLD, &a);
        MPI_Comm_create_keyval(copy_cached_type, free_cached_type, &kv, NULL);
        MPI_Type_contiguous(2, MPI_INT, &cached_types[ncached]);   /* freed by free_cached_type */
        MPI_Comm_set_attr(a, kv, &cached_types[ncached++]);
        MPI_Comm_dup(a, &b);                         /* copy_cached_type dups it */
        MPI_Comm_delete_attr(a, kv);                 /* frees the original */
        MPI_Comm_free(&b);                           /* frees the copy */
        MPI_Comm_free(&a);
        MPI_Comm_free_keyval(&kv);
        CHECK(cached_types[0] == MPI_DATATYPE_NULL && cached_types[1] == MPI_DATATYPE_NULL);
    }

    /* 3. a datatype cached on a datatype */
    {
        static MPI_Datatype helper;
        MPI_Datatype outer;
        int kv;
        MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, free_type_on_type, &kv, NULL);
        MPI_Type_vector(2, 1, 2, MPI_INT, &outer);
        MPI_Type_contiguous(4, MPI_INT, &helper);    /* freed by free_type_on_type */
        MPI_Type_set_attr(outer, kv, &helper);
        MPI_Type_free(&outer);                       /* runs free_type_on_type */
        CHECK(helper == MPI_DATATYPE_NULL);
        MPI_Type_free_keyval(&kv);
    }

    /* 4. a generalized request that owns a datatype */
    {
        MPI_Request r;
        MPI_Type_contiguous(3, MPI_INT, &greq_type); /* freed by gfree */
        MPI_Grequest_start(gq, gfree, gcancel, &greq_type, &r);
        MPI_Grequest_complete(r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);             /* runs gfree */
        CHECK(greq_type == MPI_DATATYPE_NULL);
    }

    /* 5. cleanup at MPI_Finalize through an attribute on MPI_COMM_SELF */
    {
        int kv;
        MPI_Comm_dup(MPI_COMM_SELF, &at_exit.comm);
        MPI_Op_create(max_op, 1, &at_exit.op);
        MPI_Type_contiguous(2, MPI_DOUBLE, &at_exit.type);
        MPI_Comm_create_errhandler(quiet_eh, &at_exit.eh);
        int x = rank, y;
        MPI_Allreduce(&x, &y, 1, MPI_INT, at_exit.op, MPI_COMM_WORLD);
        CHECK(y == 1);
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, cleanup_at_finalize, &kv, NULL);
        MPI_Comm_set_attr(MPI_COMM_SELF, kv, NULL);
        MPI_Comm_free_keyval(&kv);   /* the attribute keeps the keyval alive */
    }

    int total;
    MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total)
        printf("ok_callback_frees: %d checks failed\n", total);
    MPI_Finalize();
    if (!cleanup_ran) {
        fprintf(stderr, "rank %d: the MPI_COMM_SELF delete callback did not run\n", rank);
        return 1;
    }
    return total != 0;
}
