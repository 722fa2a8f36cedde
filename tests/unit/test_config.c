/*
 * test_config.c - unit tests of src/util/config.c: every option's accepted
 * and rejected values, the messages (they must name the option or the
 * variable, the bad value and what is accepted), and the environment
 * reader with a fake getenv and a fake envp.
 */
#include <check.h>
#include "run_suite.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

static mc_config cfg;
static char err[1024];

static void setup(void)
{
    mc_config_defaults(&cfg);
    err[0] = '\0';
}

static void teardown(void)
{
    mc_config_clear(&cfg);
}

static int set(const char *name, const char *value)
{
    err[0] = '\0';
    return mc_config_set(&cfg, name, value, err, sizeof err);
}

#define ck_err_has(s) ck_assert_msg(strstr(err, (s)) != NULL, "'%s' lacks '%s'", err, (s))

START_TEST(test_defaults)
{
    ck_assert_double_eq(cfg.timeout_s, 10.0);
    ck_assert_int_eq(cfg.mode, MC_MODE_STRICT);
    ck_assert_ptr_null(cfg.report_path);
    ck_assert_ptr_null(cfg.sarif_path);
    ck_assert_int_eq(cfg.mpi, MC_MPI_UNKNOWN);
    ck_assert_ptr_null(cfg.launcher);
    ck_assert_int_eq(cfg.error_exitcode, 3);
    ck_assert_int_eq(cfg.abort_on_deadlock, 1);
    ck_assert_ptr_null(cfg.dir);
    ck_assert_int_eq(cfg.color, -1);
    ck_assert_int_eq(cfg.verbose, 0);
}
END_TEST

START_TEST(test_parse_double)
{
    double d;
    ck_assert_int_eq(mc_parse_double("2.5", &d), 0);
    ck_assert_double_eq(d, 2.5);
    ck_assert_int_eq(mc_parse_double("1e2", &d), 0);
    ck_assert_double_eq(d, 100.0);
    const char *bad[] = {"", "10s", " 10", "10 ", "nan", "inf", "-inf", "0x10",
                         "abc", "1e999", ".", "1..2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(mc_parse_double(bad[i], &d) != 0, "accepted '%s'", bad[i]);
    ck_assert_int_ne(mc_parse_double(NULL, &d), 0);
}
END_TEST

START_TEST(test_parse_int)
{
    int n;
    ck_assert_int_eq(mc_parse_int("42", &n), 0);
    ck_assert_int_eq(n, 42);
    ck_assert_int_eq(mc_parse_int("-7", &n), 0);
    ck_assert_int_eq(n, -7);
    const char *bad[] = {"", "4x", " 4", "4 ", "4.0", "99999999999", "x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(mc_parse_int(bad[i], &n) != 0, "accepted '%s'", bad[i]);
}
END_TEST

START_TEST(test_parse_bool)
{
    const char *yes[] = {"yes", "YES", "true", "True", "1", "on", "ON"};
    const char *no[] = {"no", "No", "false", "FALSE", "0", "off", "Off"};
    int b;
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        ck_assert_int_eq(mc_parse_bool(yes[i], &b), 0);
        ck_assert_int_eq(b, 1);
        ck_assert_int_eq(mc_parse_bool(no[i], &b), 0);
        ck_assert_int_eq(b, 0);
    }
    ck_assert_int_ne(mc_parse_bool("maybe", &b), 0);
    ck_assert_int_ne(mc_parse_bool("", &b), 0);
    ck_assert_int_ne(mc_parse_bool("y", &b), 0);
}
END_TEST

START_TEST(test_timeout)
{
    ck_assert_int_eq(set("timeout", "2.5"), 0);
    ck_assert_double_eq(cfg.timeout_s, 2.5);
    ck_assert_int_eq(set("timeout", "86400"), 0);
    const char *bad[] = {"abc", "10s", "0", "-1", "nan", "inf", "86400.5", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(set("timeout", bad[i]) != 0, "accepted '%s'", bad[i]);
        ck_err_has("for --timeout");
        ck_err_has("> 0");
    }
    set("timeout", "abc");
    ck_assert_str_eq(err, "invalid value 'abc' for --timeout: expected a number of "
                          "seconds > 0 and <= 86400 (e.g. 10 or 2.5)");
    ck_assert_double_eq(cfg.timeout_s, 86400.0); /* unchanged by the errors */
}
END_TEST

START_TEST(test_hang_timeout)
{
    /* Default: a multiple of --timeout, following it. */
    ck_assert_int_eq(set("timeout", "2"), 0);
    ck_assert_double_eq(mc_config_hang_timeout(&cfg), 12.0);
    ck_assert_int_eq(set("hang-timeout", "30"), 0);
    ck_assert_double_eq(mc_config_hang_timeout(&cfg), 30.0);
    ck_assert_int_eq(set("hang-timeout", "off"), 0);
    ck_assert_double_eq(mc_config_hang_timeout(&cfg), 0.0);
    const char *bad[] = {"0", "-3", "never", "86401", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(set("hang-timeout", bad[i]) != 0, "accepted '%s'", bad[i]);
        ck_err_has("for --hang-timeout");
        ck_err_has("or off");
    }
    ck_assert_str_eq(mc_config_env_name("hang-timeout"), "MPICHECK_HANG_TIMEOUT");
}
END_TEST

START_TEST(test_mode_and_mpi)
{
    ck_assert_int_eq(set("mode", "fast"), 0);
    ck_assert_int_eq(cfg.mode, MC_MODE_FAST);
    ck_assert_int_eq(set("mode", "strict"), 0);
    ck_assert_int_eq(cfg.mode, MC_MODE_STRICT);
    ck_assert_int_ne(set("mode", "Fast"), 0);
    ck_err_has("'Fast' for --mode");
    ck_err_has("strict or fast");

    ck_assert_int_eq(set("mpi", "mpich"), 0);
    ck_assert_int_eq(cfg.mpi, MC_MPI_MPICH);
    ck_assert_int_eq(set("mpi", "openmpi"), 0);
    ck_assert_int_eq(cfg.mpi, MC_MPI_OPENMPI);
    ck_assert_int_ne(set("mpi", "intelmpi"), 0);
    ck_err_has("'intelmpi' for --mpi");
    ck_err_has("openmpi or mpich");
    ck_assert_str_eq(mc_mode_name(MC_MODE_FAST), "fast");
    ck_assert_str_eq(mc_mpi_flavor_name(MC_MPI_OPENMPI), "openmpi");
    ck_assert_str_eq(mc_mpi_flavor_name(MC_MPI_MPICH), "mpich");
}
END_TEST

START_TEST(test_strings)
{
    ck_assert_int_eq(set("report", "r.json"), 0);
    ck_assert_str_eq(cfg.report_path, "r.json");
    ck_assert_int_eq(set("report", "other.json"), 0); /* replaces, no leak */
    ck_assert_str_eq(cfg.report_path, "other.json");
    ck_assert_int_eq(set("sarif", "r.sarif"), 0);
    ck_assert_str_eq(cfg.sarif_path, "r.sarif");
    ck_assert_int_eq(set("launcher", "srun --mpi=pmix"), 0);
    ck_assert_str_eq(cfg.launcher, "srun --mpi=pmix");
    ck_assert_int_ne(set("report", ""), 0);
    ck_err_has("for --report");
    ck_assert_int_ne(set("sarif", ""), 0);
    ck_err_has("for --sarif");
    ck_assert_int_ne(set("launcher", ""), 0);
    ck_err_has("for --launcher");
    ck_assert_str_eq(cfg.report_path, "other.json");
}
END_TEST

START_TEST(test_exitcode_and_bool)
{
    ck_assert_int_eq(set("error-exitcode", "0"), 0);
    ck_assert_int_eq(cfg.error_exitcode, 0);
    ck_assert_int_eq(set("error-exitcode", "255"), 0);
    ck_assert_int_eq(cfg.error_exitcode, 255);
    const char *bad[] = {"256", "-1", "3x", "", "1.5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(set("error-exitcode", bad[i]) != 0, "accepted '%s'", bad[i]);
        ck_err_has("for --error-exitcode");
        ck_err_has("0 to 255");
    }
    ck_assert_int_eq(set("abort-on-deadlock", "no"), 0);
    ck_assert_int_eq(cfg.abort_on_deadlock, 0);
    ck_assert_int_eq(set("abort-on-deadlock", "ON"), 0);
    ck_assert_int_eq(cfg.abort_on_deadlock, 1);
    ck_assert_int_ne(set("abort-on-deadlock", "maybe"), 0);
    ck_err_has("'maybe' for --abort-on-deadlock");
    ck_err_has("yes or no");
    ck_assert_int_eq(cfg.check_buffers, 1);     /* the default */
    ck_assert_int_eq(set("check-buffers", "no"), 0);
    ck_assert_int_eq(cfg.check_buffers, 0);
    ck_assert_int_eq(set("check-buffers", "yes"), 0);
    ck_assert_int_eq(cfg.check_buffers, 1);
    ck_assert_int_ne(set("check-buffers", "sometimes"), 0);
    ck_err_has("'sometimes' for --check-buffers");
}
END_TEST

START_TEST(test_unknown_option_and_env_names)
{
    ck_assert_int_ne(set("timout", "3"), 0);
    ck_err_has("--timout");
    ck_assert_str_eq(mc_config_env_name("timeout"), "MPICHECK_TIMEOUT");
    ck_assert_str_eq(mc_config_env_name("error-exitcode"), "MPICHECK_ERROR_EXITCODE");
    ck_assert_str_eq(mc_config_env_name("abort-on-deadlock"), "MPICHECK_ABORT_ON_DEADLOCK");
    ck_assert_str_eq(mc_config_env_name("check-buffers"), "MPICHECK_CHECK_BUFFERS");
    ck_assert_ptr_null(mc_config_env_name("nope"));
    ck_assert_ptr_null(mc_config_env_name(NULL));
}
END_TEST

/* ---- environment, through a fake getenv over a fake envp ---- */

static char *const *fake_env;

static const char *fake_getenv(const char *name)
{
    size_t n = strlen(name);
    for (char *const *e = fake_env; e && *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

static int from_env(char *const *envp)
{
    fake_env = envp;
    err[0] = '\0';
    return mc_config_from_env(&cfg, fake_getenv, envp, err, sizeof err);
}

START_TEST(test_env_all)
{
    char *env[] = {
        "PATH=/bin", "MPICHECK_TIMEOUT=2.5", "MPICHECK_MODE=fast",
        "MPICHECK_REPORT=r.json", "MPICHECK_SARIF=r.sarif", "MPICHECK_MPI=mpich",
        "MPICHECK_LAUNCHER=srun -N1", "MPICHECK_ERROR_EXITCODE=9",
        "MPICHECK_ABORT_ON_DEADLOCK=off", "MPICHECK_DIR=/tmp/d", "MPICHECK_COLOR=1",
        "MPICHECK_INTERNAL_DEBUG=1", "MPICHECK_KEEP_DIR=1", NULL};
    ck_assert_int_eq(from_env(env), 0);
    ck_assert_double_eq(cfg.timeout_s, 2.5);
    ck_assert_int_eq(cfg.mode, MC_MODE_FAST);
    ck_assert_str_eq(cfg.report_path, "r.json");
    ck_assert_str_eq(cfg.sarif_path, "r.sarif");
    ck_assert_int_eq(cfg.mpi, MC_MPI_MPICH);
    ck_assert_str_eq(cfg.launcher, "srun -N1");
    ck_assert_int_eq(cfg.error_exitcode, 9);
    ck_assert_int_eq(cfg.abort_on_deadlock, 0);
    ck_assert_str_eq(cfg.dir, "/tmp/d");
    ck_assert_int_eq(cfg.color, 1);
}
END_TEST

START_TEST(test_color_and_verbose)
{
    char err[512];
    ck_assert_int_eq(mc_config_set(&cfg, "color", "never", err, sizeof err), 0);
    ck_assert_int_eq(mc_config_use_color(&cfg, 1, NULL), 0);
    ck_assert_int_eq(mc_config_set(&cfg, "color", "always", err, sizeof err), 0);
    ck_assert_int_eq(mc_config_use_color(&cfg, 0, "1"), 1);
    ck_assert_int_eq(mc_config_set(&cfg, "color", "auto", err, sizeof err), 0);
    ck_assert_int_eq(mc_config_use_color(&cfg, 1, NULL), 1);
    ck_assert_int_eq(mc_config_use_color(&cfg, 1, ""), 1);
    ck_assert_int_eq(mc_config_use_color(&cfg, 1, "1"), 0);     /* NO_COLOR */
    ck_assert_int_eq(mc_config_use_color(&cfg, 0, NULL), 0);
    ck_assert_int_eq(mc_config_set(&cfg, "color", "sometimes", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "auto, always or never"));
    ck_assert_int_eq(mc_config_set(&cfg, "verbose", "yes", err, sizeof err), 0);
    ck_assert_int_eq(cfg.verbose, 1);
}
END_TEST

START_TEST(test_env_empty_is_unset)
{
    char *env[] = {"MPICHECK_TIMEOUT=", "MPICHECK_REPORT=", "MPICHECK_MODE=", NULL};
    ck_assert_int_eq(from_env(env), 0);
    ck_assert_double_eq(cfg.timeout_s, 10.0);
    ck_assert_ptr_null(cfg.report_path);
    ck_assert_int_eq(cfg.mode, MC_MODE_STRICT);
}
END_TEST

START_TEST(test_env_bad_value)
{
    char *env[] = {"MPICHECK_TIMEOUT=abc", NULL};
    ck_assert_int_ne(from_env(env), 0);
    ck_assert_str_eq(err, "invalid value 'abc' in MPICHECK_TIMEOUT: expected a number "
                          "of seconds > 0 and <= 86400 (e.g. 10 or 2.5)");
    char *env2[] = {"MPICHECK_ERROR_EXITCODE=300", NULL};
    ck_assert_int_ne(from_env(env2), 0);
    ck_err_has("in MPICHECK_ERROR_EXITCODE");
    char *env3[] = {"MPICHECK_COLOR=2", NULL};
    ck_assert_int_ne(from_env(env3), 0);
    ck_err_has("in MPICHECK_COLOR");
}
END_TEST

START_TEST(test_env_unknown_name)
{
    char *env[] = {"HOME=/root", "MPICHECK_TIMOUT=3", NULL};
    ck_assert_int_ne(from_env(env), 0);
    ck_err_has("unknown environment variable MPICHECK_TIMOUT (known: MPICHECK_TIMEOUT, ");
    ck_err_has("MPICHECK_ABORT_ON_DEADLOCK");
    /* A name without '=' in envp is still checked; the prefix alone too. */
    char *env2[] = {"MPICHECK_", NULL};
    ck_assert_int_ne(from_env(env2), 0);
    /* Not our prefix: ignored. */
    char *env3[] = {"XMPICHECK_FOO=1", "MPICHECKFOO=1", NULL};
    ck_assert_int_eq(from_env(env3), 0);
    /* No envp: the names are not scanned, values still read. */
    fake_env = (char *const[]){"MPICHECK_TIMOUT=1", "MPICHECK_MODE=fast", NULL};
    ck_assert_int_eq(mc_config_from_env(&cfg, fake_getenv, NULL, err, sizeof err), 0);
    ck_assert_int_eq(cfg.mode, MC_MODE_FAST);
}
END_TEST

START_TEST(test_clear_resets)
{
    set("report", "x");
    set("timeout", "3");
    mc_config_clear(&cfg);
    ck_assert_ptr_null(cfg.report_path);
    ck_assert_double_eq(cfg.timeout_s, 10.0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("config");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_defaults);
    tcase_add_test(tc, test_color_and_verbose);
    tcase_add_test(tc, test_parse_double);
    tcase_add_test(tc, test_parse_int);
    tcase_add_test(tc, test_parse_bool);
    tcase_add_test(tc, test_timeout);
    tcase_add_test(tc, test_hang_timeout);
    tcase_add_test(tc, test_mode_and_mpi);
    tcase_add_test(tc, test_strings);
    tcase_add_test(tc, test_exitcode_and_bool);
    tcase_add_test(tc, test_unknown_option_and_env_names);
    tcase_add_test(tc, test_env_all);
    tcase_add_test(tc, test_env_empty_is_unset);
    tcase_add_test(tc, test_env_bad_value);
    tcase_add_test(tc, test_env_unknown_name);
    tcase_add_test(tc, test_clear_resets);
    suite_add_tcase(s, tc);
    int failed = mc_run_suite(s, CK_FORK_GETENV);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
