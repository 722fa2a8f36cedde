/*
 * pystack.c - the Python frames of the calling thread, when the process is
 * a Python interpreter (mpi4py programs): function, file and line of each,
 * innermost first, read through the interpreter's own C API found with
 * dlsym (nothing is linked against Python). A report shows them before the
 * C frames, so a finding's call site is the script's line.
 *
 * RATIONALE: the C stack of an mpi4py call is the interpreter's eval loop,
 * which says nothing of where the script is. The API needs the GIL. It is
 * taken only when it cannot block: this thread holds it already, or this
 * is the interpreter's only thread (mpi4py releases the GIL around its
 * MPI calls, and nobody else can hold it). Otherwise no Python frames.
 * Only when a finding is reported, never on a call's path.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "skipped.h"
#include "stack.h"

typedef void *pyobj;
static struct {
    int (*is_initialized)(void);
    pyobj (*this_thread_state)(void);
    int (*gil_check)(void);
    int (*gil_ensure)(void);
    void (*gil_release)(int);
    pyobj (*interp_of)(pyobj);
    pyobj (*thread_head)(pyobj);
    pyobj (*thread_next)(pyobj);
    pyobj (*frame_of)(pyobj);
    pyobj (*frame_back)(pyobj);
    pyobj (*frame_code)(pyobj);
    int (*frame_line)(pyobj);
    pyobj (*getattr)(pyobj, const char *);
    const char *(*utf8)(pyobj);
    void (*decref)(pyobj);
    void (*err_clear)(void);
    int ok;
} py;
static pthread_once_t py_once = PTHREAD_ONCE_INIT;

static void find_python(void)
{
#define SYM(field, name) *(void **)&py.field = dlsym(RTLD_DEFAULT, name)
    SYM(is_initialized, "Py_IsInitialized");
    SYM(this_thread_state, "PyGILState_GetThisThreadState");
    SYM(gil_check, "PyGILState_Check");
    SYM(gil_ensure, "PyGILState_Ensure");
    SYM(gil_release, "PyGILState_Release");
    SYM(interp_of, "PyThreadState_GetInterpreter");
    SYM(thread_head, "PyInterpreterState_ThreadHead");
    SYM(thread_next, "PyThreadState_Next");
    SYM(frame_of, "PyThreadState_GetFrame");
    SYM(frame_back, "PyFrame_GetBack");
    SYM(frame_code, "PyFrame_GetCode");
    SYM(frame_line, "PyFrame_GetLineNumber");
    SYM(getattr, "PyObject_GetAttrString");
    SYM(utf8, "PyUnicode_AsUTF8");
    SYM(decref, "Py_DecRef");
    SYM(err_clear, "PyErr_Clear");
#undef SYM
    /* All of them (3.9 and later), or none is used. */
    py.ok = py.is_initialized && py.this_thread_state && py.gil_check && py.gil_ensure && py.gil_release
            && py.interp_of && py.thread_head && py.thread_next && py.frame_of && py.frame_back
            && py.frame_code && py.frame_line && py.getattr && py.utf8 && py.decref && py.err_clear;
}

static char *attr_text(pyobj o, const char *name)
{
    pyobj v = py.getattr(o, name);
    if (!v) {
        py.err_clear();
        return NULL;
    }
    const char *s = py.utf8(v);
    char *copy = s ? mc_strdup(s) : NULL;
    if (!s)
        py.err_clear();
    py.decref(v);
    return copy;
}

int mc_pystack_active(void)
{
    pthread_once(&py_once, find_python);
    return py.ok && py.is_initialized();
}

size_t mc_pystack_capture(mc_frame *out, size_t max)
{
    pthread_once(&py_once, find_python);
    if (!py.ok || max == 0 || !py.is_initialized())
        return 0;
    pyobj ts = py.this_thread_state();
    if (!ts)
        return 0;
    int held = py.gil_check();
    if (!held) {
        pyobj head = py.thread_head(py.interp_of(ts));
        if (head != ts || py.thread_next(head) != NULL)
            return 0;   /* another thread may hold the GIL: waiting for it could hang */
    }
    int g = held ? 0 : py.gil_ensure();
    size_t n = 0;
    pyobj f = py.frame_of(ts);
    while (f && n < max) {
        pyobj code = py.frame_code(f);
        mc_frame *fr = &out[n++];
        memset(fr, 0, sizeof *fr);
        fr->line = py.frame_line(f);
        if (code) {
            fr->file = attr_text(code, "co_filename");
            fr->function = attr_text(code, "co_name");
            py.decref(code);
        }
        fr->module = mc_strdup("python");
        pyobj back = py.frame_back(f);
        py.decref(f);
        f = back;
    }
    if (f)
        py.decref(f);
    if (!held)
        py.gil_release(g);
    return n;
}

void mc_stack_prepend_python(mc_frame **stack, size_t *nframes)
{
    mc_frame pyf[32];
    size_t np = mc_pystack_capture(pyf, sizeof pyf / sizeof pyf[0]);
    if (np == 0)
        return;
    mc_frame *all = mc_calloc(np + *nframes, sizeof *all);
    if (!all) {
        mc_frames_free(pyf, np);
        return;
    }
    memcpy(all, pyf, np * sizeof *all);
    if (*nframes)
        memcpy(all + np, *stack, *nframes * sizeof *all);
    free(*stack);
    *stack = all;
    *nframes += np;
}
