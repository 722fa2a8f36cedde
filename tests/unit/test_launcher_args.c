/*
 * test_launcher_args.c - unit tests of the launcher's pure parts: the
 * command-line split (args.c), PROGRAM detection among launcher options and
 * the ldd / launcher-name classification (detect.c), and the command and
 * environment built for the ranks (command.c). Nothing here starts MPI.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <check.h>
#include "run_suite.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "command.h"
#include "detect.h"

static char err[2048];
static char *const *fake_env;

static const char *fake_getenv(const char *name)
{
    size_t n = strlen(name);
    for (char *const *e = fake_env; e && *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

/* Parses a NULL-terminated argv under a fake environment. */
static int parse(char **argv, char *const *env, mc_args *a)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    fake_env = env;
    err[0] = '\0';
    return mc_args_parse(argc, argv, fake_getenv, env, a, err, sizeof err);
}

#define ck_err_has(s) ck_assert_msg(strstr(err, (s)) != NULL, "'%s' lacks '%s'", err, (s))

START_TEST(test_split_simple)
{
    char *argv[] = {"mpicheck", "-np", "4", "./app", NULL};
    mc_args a;
    ck_assert_int_eq(parse(argv, NULL, &a), MC_ARGS_RUN);
    ck_assert_int_eq(a.nrest, 3);
    ck_assert_str_eq(a.rest[0], "-np");
    ck_assert_str_eq(a.rest[2], "./app");
    mc_config_clear(&a.cfg);
}
END_TEST

/* --verbose and --gen-suppressions alone are yes: the next word is the
 * program's; --suppressions again adds a file, after the variable's. */
START_TEST(test_report_options)
{
    char *env[] = {"MPICHECK_SUPPRESSIONS=/e.supp", NULL};
    char *argv[] = {"mpicheck", "--verbose", "--gen-suppressions", "--checks=all,-lost-message",
                    "--suppressions=a.supp", "--suppressions", "b.supp", "--color=never", "./app", NULL};
    mc_args a;
    ck_assert_int_eq(parse(argv, env, &a), MC_ARGS_RUN);
    ck_assert_int_eq(a.cfg.verbose, 1);
    ck_assert_int_eq(a.cfg.gen_suppressions, 1);
    ck_assert_str_eq(a.cfg.checks, "all,-lost-message");
    ck_assert_str_eq(a.cfg.suppressions, "a.supp:b.supp");
    ck_assert_int_eq(a.cfg.color, 0);
    ck_assert_int_eq(a.nrest, 1);
    ck_assert_str_eq(a.rest[0], "./app");
    mc_config_clear(&a.cfg);
    char *argv2[] = {"mpicheck", "./app", NULL};
    ck_assert_int_eq(parse(argv2, env, &a), MC_ARGS_RUN);
    ck_assert_str_eq(a.cfg.suppressions, "/e.supp");
    mc_config_clear(&a.cfg);
}
END_TEST

START_TEST(test_split_options_and_dashdash)
{
    char *argv[] = {"mpicheck", "--timeout=3", "--report", "r.json", "--mode", "fast",
                    "--", "-np", "2", "--oversubscribe", "./app", "x", "--mode=strict", NULL};
    mc_args a;
    ck_assert_int_eq(parse(argv, NULL, &a), MC_ARGS_RUN);
    ck_assert_double_eq(a.cfg.timeout_s, 3.0);
    ck_assert_str_eq(a.cfg.report_path, "r.json");
    ck_assert_int_eq(a.cfg.mode, MC_MODE_FAST); /* the later --mode is the app's */
    ck_assert_int_eq(a.nrest, 6);
    ck_assert_str_eq(a.rest[0], "-np");
    ck_assert_str_eq(a.rest[5], "--mode=strict");
    mc_config_clear(&a.cfg);
}
END_TEST

START_TEST(test_first_foreign_token_ends_options)
{
    /* --oversubscribe is not ours: it and everything after go to mpirun. */
    char *argv[] = {"mpicheck", "--mpi=openmpi", "--oversubscribe", "--timeout=3",
                    "./app", NULL};
    mc_args a;
    ck_assert_int_eq(parse(argv, NULL, &a), MC_ARGS_RUN);
    ck_assert_int_eq(a.cfg.mpi, MC_MPI_OPENMPI);
    ck_assert_double_eq(a.cfg.timeout_s, 10.0);
    ck_assert_int_eq(a.nrest, 3);
    ck_assert_str_eq(a.rest[0], "--oversubscribe");
    ck_assert_int_eq(mc_args_is_ours(a.rest[1]), 1);
    ck_assert_int_eq(mc_args_is_ours("--oversubscribe"), 0);
    ck_assert_int_eq(mc_args_is_ours("-timeout"), 0);
    mc_config_clear(&a.cfg);
}
END_TEST

START_TEST(test_env_then_options)
{
    char *env[] = {"MPICHECK_TIMEOUT=7", "MPICHECK_MODE=fast", NULL};
    char *argv[] = {"mpicheck", "--timeout", "2", "./app", NULL};
    mc_args a;
    ck_assert_int_eq(parse(argv, env, &a), MC_ARGS_RUN);
    ck_assert_double_eq(a.cfg.timeout_s, 2.0); /* the option wins */
    ck_assert_int_eq(a.cfg.mode, MC_MODE_FAST); /* the environment stays */
    mc_config_clear(&a.cfg);
}
END_TEST

START_TEST(test_typos)
{
    struct { char *tok; const char *meant; } cases[] = {
        {"--timout=3", "--timeout"}, {"--mdoe=fast", "--mode"}, {"--reprot", "--report"},
        {"--sarf=x", "--sarif"}, {"--mip=mpich", "--mpi"}, {"--luncher=srun", "--launcher"},
        {"--error-exitcod=1", "--error-exitcode"}, {"--abort-on-deadlok=no", "--abort-on-deadlock"},
        {"--hlep", "--help"}, {"--verison", "--version"}, {"--timeot", "--timeout"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *argv[] = {"mpicheck", cases[i].tok, "./app", NULL};
        mc_args a;
        ck_assert_int_eq(parse(argv, NULL, &a), MC_ARGS_ERROR);
        char want[128];
        snprintf(want, sizeof want, "unknown option '%s' (did you mean %s?)", cases[i].tok,
                 cases[i].meant);
        ck_assert_str_eq(err, want);
        mc_config_clear(&a.cfg);
    }
}
END_TEST

START_TEST(test_launcher_options_are_not_typos)
{
    /* Real mpirun/srun long options near our short names. */
    char *toks[] = {"--mca", "--np", "--app", "--hnp", "--ppr", "--mem=4G", "--host",
                    "--oversubscribe", "--map-by", "--tag-output", "--nodes=2"};
    for (size_t i = 0; i < sizeof toks / sizeof toks[0]; i++) {
        char *argv[] = {"mpicheck", toks[i], "x", "./app", NULL};
        mc_args a;
        ck_assert_msg(parse(argv, NULL, &a) == MC_ARGS_RUN, "%s: %s", toks[i], err);
        ck_assert_str_eq(a.rest[0], toks[i]);
        mc_config_clear(&a.cfg);
    }
    ck_assert_int_eq(mc_edit_distance("mdoe", 4, "mode"), 1);
    ck_assert_int_eq(mc_edit_distance("timout", 6, "timeout"), 1);
    ck_assert_int_eq(mc_edit_distance("mca", 3, "mpi"), 2);
    ck_assert_int_eq(mc_edit_distance("", 0, "abc"), 3);
}
END_TEST

START_TEST(test_errors)
{
    mc_args a;
    char *v1[] = {"mpicheck", "--timeout=10s", "./app", NULL};
    ck_assert_int_eq(parse(v1, NULL, &a), MC_ARGS_ERROR);
    ck_err_has("invalid value '10s' for --timeout");
    mc_config_clear(&a.cfg);

    char *v2[] = {"mpicheck", "--timeout=3", NULL};
    ck_assert_int_eq(parse(v2, NULL, &a), MC_ARGS_ERROR);
    ck_err_has("no PROGRAM given");
    mc_config_clear(&a.cfg);

    char *v3[] = {"mpicheck", "--", NULL};
    ck_assert_int_eq(parse(v3, NULL, &a), MC_ARGS_ERROR);
    ck_err_has("no PROGRAM given");
    mc_config_clear(&a.cfg);

    char *v4[] = {"mpicheck", "--report", NULL};
    ck_assert_int_eq(parse(v4, NULL, &a), MC_ARGS_ERROR);
    ck_err_has("--report needs a value");
    mc_config_clear(&a.cfg);

    char *v5[] = {"mpicheck", "--version=2", NULL};
    ck_assert_int_eq(parse(v5, NULL, &a), MC_ARGS_ERROR);
    mc_config_clear(&a.cfg);

    char *env[] = {"MPICHECK_MDOE=fast", NULL};
    char *v6[] = {"mpicheck", "./app", NULL};
    ck_assert_int_eq(parse(v6, env, &a), MC_ARGS_ERROR);
    ck_err_has("unknown environment variable MPICHECK_MDOE");
    mc_config_clear(&a.cfg);
}
END_TEST

START_TEST(test_help_version)
{
    mc_args a;
    char *env[] = {"MPICHECK_TIMEOUT=bad", NULL}; /* does not block --help */
    char *v1[] = {"mpicheck", "--timeout=1", "-h", NULL};
    ck_assert_int_eq(parse(v1, env, &a), MC_ARGS_HELP);
    mc_config_clear(&a.cfg);
    char *v2[] = {"mpicheck", "--version", "./app", NULL};
    ck_assert_int_eq(parse(v2, NULL, &a), MC_ARGS_VERSION);
    mc_config_clear(&a.cfg);
    char *v3[] = {"mpicheck", "-np", "2", "--help", NULL}; /* mpirun's --help */
    ck_assert_int_eq(parse(v3, NULL, &a), MC_ARGS_RUN);
    mc_config_clear(&a.cfg);
}
END_TEST

static int find(char **args)
{
    int n = 0;
    while (args[n])
        n++;
    return mc_find_program(n, args, NULL);
}

START_TEST(test_find_program)
{
    char *a1[] = {"-np", "4", "-x", "FOO", "--oversubscribe", "./app", "arg", NULL};
    ck_assert_int_eq(find(a1), 5);
    char *a2[] = {"-genv", "A", "B", "./app", NULL};
    ck_assert_int_eq(find(a2), 3);
    char *a3[] = {"--mca", "btl", "self", "./app", NULL};
    ck_assert_int_eq(find(a3), 3);
    char *a4[] = {"./app", "-np", "3", NULL};
    ck_assert_int_eq(find(a4), 0);
    char *a5[] = {"-n", "2", "--map-by=core", "-host", "a,b", "--bind-to", "core", "app", NULL};
    ck_assert_int_eq(find(a5), 7);
    char *a6[] = {"-np", "4", NULL};
    ck_assert_int_eq(find(a6), -1);
    char *a7[] = {"-mca", "btl", NULL}; /* value missing: no program */
    ck_assert_int_eq(find(a7), -1);
    char *a8[] = {"-ppn", "2", "-f", "hosts", "-iface", "eth0", "-bootstrap", "fork",
                  "-genvlist", "A,B", "-env", "X", "1", "prog", NULL};
    ck_assert_int_eq(find(a8), 13);
    const char *wdir;
    char *a9[] = {"-wdir", "/w", "-np", "1", "./app", NULL};
    ck_assert_int_eq(mc_find_program(5, a9, &wdir), 4);
    ck_assert_str_eq(wdir, "/w");
}
END_TEST

START_TEST(test_resolve_program)
{
    char dir[] = "/tmp/mctest.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char exe[256], plain[256], path_env[300];
    snprintf(exe, sizeof exe, "%s/tool", dir);
    snprintf(plain, sizeof plain, "%s/data", dir);
    fclose(fopen(exe, "w"));
    fclose(fopen(plain, "w"));
    chmod(exe, 0755);
    snprintf(path_env, sizeof path_env, "/nonexistent:%s", dir);

    char *p = mc_resolve_program("tool", NULL, path_env, err, sizeof err);
    ck_assert_str_eq(p, exe);
    free(p);
    ck_assert_ptr_null(mc_resolve_program("nosuch", NULL, path_env, err, sizeof err));
    ck_assert_str_eq(err, "program 'nosuch' not found (searched PATH)");
    ck_assert_ptr_null(mc_resolve_program("data", NULL, path_env, err, sizeof err));
    ck_err_has("program 'data' is not executable");
    ck_assert_ptr_null(mc_resolve_program(plain, NULL, path_env, err, sizeof err));
    ck_err_has("is not executable");
    ck_assert_ptr_null(mc_resolve_program("./nosuch", NULL, path_env, err, sizeof err));
    ck_err_has("program './nosuch' not found");
    p = mc_resolve_program("./tool", dir, NULL, err, sizeof err); /* -wdir */
    ck_assert_ptr_nonnull(p);
    free(p);
    unlink(exe);
    unlink(plain);
    rmdir(dir);
}
END_TEST

START_TEST(test_ldd_lines)
{
    /* As printed on Debian 12 for mpicc.openmpi / mpicc.mpich programs. */
    ck_assert_int_eq(mc_flavor_from_ldd_line(
        "\tlibmpi.so.40 => /lib/x86_64-linux-gnu/libmpi.so.40 (0x00007f0)\n"), MC_MPI_OPENMPI);
    ck_assert_int_eq(mc_flavor_from_ldd_line(
        "\tlibopen-pal.so.40 => /lib/x86_64-linux-gnu/libopen-pal.so.40 (0x1)\n"), MC_MPI_OPENMPI);
    ck_assert_int_eq(mc_flavor_from_ldd_line(
        "\tlibmpich.so.12 => /lib/x86_64-linux-gnu/libmpich.so.12 (0x1)\n"), MC_MPI_MPICH);
    /* The checker's own library (pkg-config mpicheck-openmpi) is no MPICH. */
    ck_assert_int_eq(mc_flavor_from_ldd_line(
        "\tlibmpicheck.so => /usr/lib/mpicheck/openmpi/libmpicheck.so (0x1)\n"), MC_MPI_UNKNOWN);
    ck_assert_int_eq(mc_flavor_from_ldd_line(
        "\tlibmpi.so.20 => /opt/openmpi-2/lib/libmpi.so.20 (0x1)\n"), MC_MPI_OPENMPI);
    ck_assert_int_eq(mc_flavor_from_ldd_line(
        "\tlibmpi.so.12 => /usr/lib/x86_64-linux-gnu/mpich/lib/libmpi.so.12 (0x1)\n"),
        MC_MPI_MPICH);
    ck_assert_int_eq(mc_flavor_from_ldd_line(
        "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x1)\n"), MC_MPI_UNKNOWN);
    ck_assert_int_eq(mc_flavor_from_ldd_line(
        "\tlibmpi_cxx.so.40 => /lib/libmpi_cxx.so.40 (0x1)\n"), MC_MPI_UNKNOWN);
    ck_assert_int_eq(mc_flavor_from_ldd_line("\tnot a dynamic executable\n"), MC_MPI_UNKNOWN);
    ck_assert_int_eq(mc_flavor_from_ldd_line(""), MC_MPI_UNKNOWN);
    ck_assert_int_eq(mc_launcher_flavor("/usr/bin/orterun", "/nonexistent"), MC_MPI_OPENMPI);
    ck_assert_int_eq(mc_launcher_flavor("mpiexec.hydra", "/nonexistent"), MC_MPI_MPICH);
    ck_assert_int_eq(mc_launcher_flavor("mpirun.openmpi", "/nonexistent"), MC_MPI_OPENMPI);
    ck_assert_int_eq(mc_launcher_flavor("srun", "/nonexistent"), MC_MPI_UNKNOWN);
}
END_TEST

static int argv_has(const mc_command *c, const char *a, const char *b)
{
    for (size_t i = 0; i + 1 < c->argc; i++)
        if (strcmp(c->argv[i], a) == 0 && strcmp(c->argv[i + 1], b) == 0)
            return 1;
    return 0;
}

static const char *env_set(const mc_command *c, const char *name)
{
    for (size_t i = 0; i < c->nset; i++)
        if (strcmp(c->set_names[i], name) == 0)
            return c->set_values[i];
    return NULL;
}

START_TEST(test_build_command)
{
    mc_config cfg;
    mc_config_defaults(&cfg);
    cfg.timeout_s = 2.5;
    char **words;
    ck_assert_int_eq(mc_split_words("  mpirun.openmpi   --tag-output ", &words), 2);
    char *rest[] = {"-np", "2", "./app", "x"};
    mc_command_spec spec = {
        .launcher = words, .launcher_kind = MC_MPI_OPENMPI, .rest = rest, .nrest = 4,
        .library = "/lib/ck.so", .old_preload = "/x.so", .dir = "/tmp/d", .cfg = &cfg,
        .color = 1, .envp = (char *const[]){"MPICHECK_INTERNAL_TRACE=1", NULL},
    };
    mc_command c;
    ck_assert_int_eq(mc_build_command(&spec, &c), 0);
    ck_assert_str_eq(c.argv[0], "mpirun.openmpi");
    ck_assert_str_eq(c.argv[1], "--tag-output");
    ck_assert_str_eq(c.argv[2], "-x");
    ck_assert_str_eq(c.argv[3], "LD_PRELOAD=/lib/ck.so:/x.so");
    ck_assert(argv_has(&c, "-x", "MPICHECK_DIR"));
    ck_assert(argv_has(&c, "-x", "MPICHECK_INTERNAL_TRACE"));
    ck_assert_str_eq(c.argv[c.argc - 4], "-np");
    ck_assert_str_eq(c.argv[c.argc - 1], "x");
    ck_assert_ptr_null(c.argv[c.argc]);
    ck_assert_ptr_null(env_set(&c, "LD_PRELOAD")); /* not in mpirun's environment */
    ck_assert_str_eq(env_set(&c, "MPICHECK_TIMEOUT"), "2.5");
    ck_assert_str_eq(env_set(&c, "MPICHECK_COLOR"), "1");
    ck_assert_str_eq(env_set(&c, "MPICHECK_MODE"), "strict");
    ck_assert_str_eq(env_set(&c, "MPICHECK_ABORT_ON_DEADLOCK"), "yes");
    ck_assert_str_eq(env_set(&c, "MPICHECK_DIR"), "/tmp/d");
    int unset_report = 0, unset_sarif = 0, unset_code = 0;
    for (size_t i = 0; i < c.nunset; i++) {
        unset_report |= strcmp(c.unset[i], "MPICHECK_REPORT") == 0;
        unset_sarif |= strcmp(c.unset[i], "MPICHECK_SARIF") == 0;
        unset_code |= strcmp(c.unset[i], "MPICHECK_ERROR_EXITCODE") == 0;
    }
    ck_assert(unset_report && unset_sarif && unset_code);
    mc_command_clear(&c);

    spec.launcher_kind = MC_MPI_MPICH;
    spec.old_preload = NULL;
    ck_assert_int_eq(mc_build_command(&spec, &c), 0);
    ck_assert_str_eq(c.argv[2], "-genv");
    ck_assert_str_eq(c.argv[3], "LD_PRELOAD");
    ck_assert_str_eq(c.argv[4], "/lib/ck.so");
    ck_assert_ptr_null(env_set(&c, "LD_PRELOAD"));
    mc_command_clear(&c);

    spec.launcher_kind = MC_MPI_UNKNOWN; /* srun etc.: environment only */
    ck_assert_int_eq(mc_build_command(&spec, &c), 0);
    ck_assert_str_eq(env_set(&c, "LD_PRELOAD"), "/lib/ck.so");
    ck_assert_str_eq(c.argv[2], "-np");
    mc_command_clear(&c);
    mc_free_words(words);
    ck_assert_int_eq(mc_split_words("   ", &words), 0);
    mc_free_words(words);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("launcher_args");
    TCase *tc = tcase_create("launcher_args");
    tcase_add_test(tc, test_split_simple);
    tcase_add_test(tc, test_report_options);
    tcase_add_test(tc, test_split_options_and_dashdash);
    tcase_add_test(tc, test_first_foreign_token_ends_options);
    tcase_add_test(tc, test_env_then_options);
    tcase_add_test(tc, test_typos);
    tcase_add_test(tc, test_launcher_options_are_not_typos);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_help_version);
    tcase_add_test(tc, test_find_program);
    tcase_add_test(tc, test_resolve_program);
    tcase_add_test(tc, test_ldd_lines);
    tcase_add_test(tc, test_build_command);
    suite_add_tcase(s, tc);
    int failed = mc_run_suite(s, CK_FORK_GETENV);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
