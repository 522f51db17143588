/* The option tables (src/cli/options.h) and the shared session rows (src/cli/cli.h): flags over
 * variables over defaults, every kind's checks, the usage errors, and a help that lists every row. */
#include "testutil.h"

#include "cli/cli.h"
#include "cli/options.h"

/* A test table with one row of each kind. The variable names are the test's own, so that the
 * environment of the machine running the tests cannot leak in. */
typedef struct {
  const char *name, *mode;
  long count;
  double ratio;
  int loud, colour; /* colour: 0 unset, 1 --colour, 2 --no-colour */
  mx_opt_list_t tags;
  const char *left, *right;
} args_t;

#define ROW(field, ...) MX_OPT_ROW(args_t, field, __VA_ARGS__)
static const mx_opt_t rows[] = {
    ROW(name, .name = "--name", .alias = "-n", .metavar = "TEXT", .env = "MX_TEST_NAME", .flags = MX_OPT_REQUIRED,
        .help = "a name"),
    ROW(count, .name = "--count", .kind = MX_OPT_INT, .metavar = "N", .lo = 16, .hi = 1024, .env = "MX_TEST_COUNT",
        .def = "512", .help = "a count"),
    ROW(ratio, .name = "--ratio", .kind = MX_OPT_FLOAT, .metavar = "R", .def = "0.5", .help = "a ratio"),
    ROW(mode, .name = "--mode", .kind = MX_OPT_ENUM, .choices = "f32|f16|bf16", .def = "f32", .help = "a mode"),
    ROW(loud, .name = "--loud", .kind = MX_OPT_SWITCH, .help = "be loud"),
    ROW(colour, .name = "--colour", .kind = MX_OPT_SWITCH, .set = 1, .help = "colour on"),
    ROW(colour, .name = "--no-colour", .kind = MX_OPT_SWITCH, .set = 2, .help = "colour off"),
    ROW(tags, .name = "--tag", .kind = MX_OPT_LIST, .metavar = "T", .hi = 3, .help = "a tag"),
    ROW(left, .name = "--left", .metavar = "X", .excludes = "--right", .help = "one side"),
    ROW(right, .name = "--right", .metavar = "X", .help = "the other side"),
};
#define N_ROWS ((int)(sizeof rows / sizeof rows[0]))

static mx_opt_cmd_t test_cmd(args_t *a, const mx_opt_default_t *defaults) {
  return (mx_opt_cmd_t){.prog = "mlxcel test", .synopsis = "-n NAME [options]", .about = "A test command.",
                        .sets = {{rows, N_ROWS, a, 0}}, .defaults = defaults};
}

/* Parses a NULL-terminated argument list (after the command's name) into *a. */
static mx_status_t parse(args_t *a, const mx_opt_default_t *defaults, bool *help, ...) {
  char *argv[32] = {"test"};
  int argc = 1;
  va_list ap;
  va_start(ap, help);
  for (char *s; argc < 31 && (s = va_arg(ap, char *));) argv[argc++] = s;
  va_end(ap);
  *a = (args_t){0};
  mx_opt_cmd_t c = test_cmd(a, defaults);
  bool h = false;
  mx_status_t st = mx_opt_parse(&c, argc, argv, help ? help : &h);
  return st;
}

static int setup(void **state) {
  (void)state;
  unsetenv("MX_TEST_NAME");
  unsetenv("MX_TEST_COUNT");
  return 0;
}

static void defaults_apply(void **state) {
  (void)state;
  args_t a;
  assert_ok(parse(&a, NULL, NULL, "-n", "x", NULL));
  assert_string_equal(a.name, "x");
  assert_int_equal(a.count, 512);
  assert_true(a.ratio == 0.5);
  assert_string_equal(a.mode, "f32");
  assert_int_equal(a.loud, 0);
  assert_int_equal(a.tags.n, 0);
  assert_null(a.left);
}

static void flag_beats_env(void **state) {
  (void)state;
  args_t a;
  setenv("MX_TEST_COUNT", "300", 1);
  assert_ok(parse(&a, NULL, NULL, "-n", "x", NULL));
  assert_int_equal(a.count, 300);
  assert_ok(parse(&a, NULL, NULL, "-n", "x", "--count", "200", NULL));
  assert_int_equal(a.count, 200);
  /* A bad variable is not looked at when the flag is given. */
  setenv("MX_TEST_COUNT", "junk", 1);
  assert_ok(parse(&a, NULL, NULL, "-n", "x", "--count", "200", NULL));
  assert_status(parse(&a, NULL, NULL, "-n", "x", NULL), MX_STAGE_USAGE, "MX_TEST_COUNT must be a whole number");
  /* A required row is satisfied by its variable. */
  setenv("MX_TEST_NAME", "from-env", 1);
  setenv("MX_TEST_COUNT", "64", 1);
  assert_ok(parse(&a, NULL, NULL, NULL));
  assert_string_equal(a.name, "from-env");
  assert_ok(parse(&a, NULL, NULL, "--name", "flag", NULL));
  assert_string_equal(a.name, "flag");
}

static void empty_env_is_unset(void **state) {
  (void)state;
  args_t a;
  setenv("MX_TEST_COUNT", "", 1);
  assert_ok(parse(&a, NULL, NULL, "-n", "x", NULL));
  assert_int_equal(a.count, 512);
  setenv("MX_TEST_NAME", "", 1);
  assert_status(parse(&a, NULL, NULL, NULL), MX_STAGE_USAGE, "give -n/--name TEXT");
  /* An empty flag value is a value, as it always was. */
  assert_ok(parse(&a, NULL, NULL, "--name", "", NULL));
  assert_string_equal(a.name, "");
}

static void int_bounds(void **state) {
  (void)state;
  args_t a;
  assert_ok(parse(&a, NULL, NULL, "-n", "x", "--count", "16", NULL));
  assert_int_equal(a.count, 16);
  assert_ok(parse(&a, NULL, NULL, "-n", "x", "--count", "1024", NULL));
  assert_status(parse(&a, NULL, NULL, "-n", "x", "--count", "15", NULL), MX_STAGE_USAGE,
                "--count must be a whole number from 16 to 1024, not '15'");
  assert_status(parse(&a, NULL, NULL, "-n", "x", "--count", "1025", NULL), MX_STAGE_USAGE, "not '1025'");
  assert_status(parse(&a, NULL, NULL, "-n", "x", "--count", "12x", NULL), MX_STAGE_USAGE, "not '12x'");
  assert_status(parse(&a, NULL, NULL, "-n", "x", "--count", "", NULL), MX_STAGE_USAGE, "not ''");
  assert_status(parse(&a, NULL, NULL, "-n", "x", "--count", "99999999999999999999", NULL), MX_STAGE_USAGE, NULL);
}

static void float_and_enum(void **state) {
  (void)state;
  args_t a;
  assert_ok(parse(&a, NULL, NULL, "-n", "x", "--ratio", "-1.25", "--mode", "bf16", NULL));
  assert_true(a.ratio == -1.25);
  assert_string_equal(a.mode, "bf16");
  assert_status(parse(&a, NULL, NULL, "-n", "x", "--ratio", "1.2.3", NULL), MX_STAGE_USAGE, "--ratio must be a number");
  assert_status(parse(&a, NULL, NULL, "-n", "x", "--mode", "f8", NULL), MX_STAGE_USAGE,
                "--mode must be one of f32|f16|bf16, not 'f8'");
  /* A prefix of a choice is not the choice. */
  assert_status(parse(&a, NULL, NULL, "-n", "x", "--mode", "f1", NULL), MX_STAGE_USAGE, NULL);
}

static void equals_form(void **state) {
  (void)state;
  args_t a;
  assert_ok(parse(&a, NULL, NULL, "--name=a=b", "--count=100", "-n=short", "--tag=t1", NULL));
  assert_string_equal(a.name, "short"); /* the last one given wins */
  assert_int_equal(a.count, 100);
  assert_string_equal(a.tags.v[0], "t1");
  assert_ok(parse(&a, NULL, NULL, "--name=", NULL));
  assert_string_equal(a.name, "");
  assert_ok(parse(&a, NULL, NULL, "--name=a=b", NULL));
  assert_string_equal(a.name, "a=b");
  /* A separate value may look like an option: it is still the value. */
  assert_ok(parse(&a, NULL, NULL, "--name", "--count", NULL));
  assert_string_equal(a.name, "--count");
}

static void list_with_maximum(void **state) {
  (void)state;
  args_t a;
  assert_ok(parse(&a, NULL, NULL, "-n", "x", "--tag", "a", "--tag", "b", "--tag=c", NULL));
  assert_int_equal(a.tags.n, 3);
  assert_string_equal(a.tags.v[0], "a");
  assert_string_equal(a.tags.v[2], "c");
  assert_status(parse(&a, NULL, NULL, "-n", "x", "--tag", "a", "--tag", "b", "--tag", "c", "--tag", "d", NULL),
                MX_STAGE_USAGE, "give at most 3 non-empty --tag values");
  assert_status(parse(&a, NULL, NULL, "-n", "x", "--tag", "", NULL), MX_STAGE_USAGE, "non-empty");
}

static void switches(void **state) {
  (void)state;
  args_t a;
  assert_ok(parse(&a, NULL, NULL, "-n", "x", "--loud", NULL));
  assert_int_equal(a.loud, 1);
  assert_int_equal(a.colour, 0);
  assert_ok(parse(&a, NULL, NULL, "-n", "x", "--colour", NULL));
  assert_int_equal(a.colour, 1);
  /* Two switches on one field: the last one given wins. */
  assert_ok(parse(&a, NULL, NULL, "-n", "x", "--colour", "--no-colour", NULL));
  assert_int_equal(a.colour, 2);
  assert_ok(parse(&a, NULL, NULL, "-n", "x", "--no-colour", "--colour", NULL));
  assert_int_equal(a.colour, 1);
  assert_status(parse(&a, NULL, NULL, "-n", "x", "--loud=1", NULL), MX_STAGE_USAGE, "option --loud takes no value");
}

static void unknown_and_missing(void **state) {
  (void)state;
  args_t a;
  mx_status_t st = parse(&a, NULL, NULL, "-n", "x", "--frobnicate", NULL);
  assert_non_null(st);
  assert_string_equal(mx_status_remedy(st), "run `mlxcel test --help`");
  assert_status(st, MX_STAGE_USAGE, "unknown option '--frobnicate'");
  assert_status(parse(&a, NULL, NULL, "-n", "x", "--frobnicate=1", NULL), MX_STAGE_USAGE, "unknown option '--frobnicate=1'");
  /* A prefix of a flag is not the flag. */
  assert_status(parse(&a, NULL, NULL, "-n", "x", "--coun", "5", NULL), MX_STAGE_USAGE, "unknown option '--coun'");
  assert_status(parse(&a, NULL, NULL, "-n", "x", "stray", NULL), MX_STAGE_USAGE, "unknown option 'stray'");
  assert_status(parse(&a, NULL, NULL, "-n", "x", "--count", NULL), MX_STAGE_USAGE, "option --count needs a value");
  assert_status(parse(&a, NULL, NULL, "-n", NULL), MX_STAGE_USAGE, "option -n needs a value");
  assert_status(parse(&a, NULL, NULL, "--count", "20", NULL), MX_STAGE_USAGE, "give -n/--name TEXT");
}

static void excludes(void **state) {
  (void)state;
  args_t a;
  assert_ok(parse(&a, NULL, NULL, "-n", "x", "--left", "l", NULL));
  assert_ok(parse(&a, NULL, NULL, "-n", "x", "--right", "r", NULL));
  assert_status(parse(&a, NULL, NULL, "-n", "x", "--right", "r", "--left", "l", NULL), MX_STAGE_USAGE,
                "--left and --right exclude each other");
}

static void help_stops_the_parse(void **state) {
  (void)state;
  args_t a;
  bool help = false;
  /* Nothing after --help is read, and nothing is checked: the help of a half-typed command works. */
  assert_ok(parse(&a, NULL, &help, "--count", "0", "--help", "--frobnicate", NULL));
  assert_true(help);
  assert_ok(parse(&a, NULL, &help, "-h", NULL));
  assert_true(help);
  /* What comes before it is read in order. */
  assert_status(parse(&a, NULL, &help, "--frobnicate", "--help", NULL), MX_STAGE_USAGE, "unknown option");
  assert_ok(parse(&a, NULL, &help, "-n", "x", NULL));
  assert_false(help);
}

static char *help_text(const mx_opt_cmd_t *c) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  mx_opt_help(c, f);
  fclose(f);
  return buf;
}

static void help_lists_every_row(void **state) {
  (void)state;
  args_t a;
  mx_opt_cmd_t c = test_cmd(&a, NULL);
  char *h = help_text(&c);
  assert_non_null(strstr(h, "usage: mlxcel test -n NAME [options]\n\nA test command.\n"));
  for (int i = 0; i < N_ROWS; i++) {
    char want[96];
    snprintf(want, sizeof want, "  %s%s%s", rows[i].alias ? rows[i].alias : "", rows[i].alias ? ", " : "", rows[i].name);
    if (!strstr(h, want)) fail_msg("help lacks '%s':\n%s", want, h);
    assert_non_null(strstr(h, rows[i].help));
    if (rows[i].env) assert_non_null(strstr(h, rows[i].env));
  }
  assert_non_null(strstr(h, "--count N"));
  assert_non_null(strstr(h, "16..1024; env MX_TEST_COUNT; default 512]"));
  assert_non_null(strstr(h, "--mode f32|f16|bf16"));
  assert_non_null(strstr(h, "repeatable, up to 3"));
  assert_non_null(strstr(h, "not with --right"));
  assert_non_null(strstr(h, "-h, --help"));
  free(h);
}

static void command_default_overrides_the_row(void **state) {
  (void)state;
  args_t a;
  static const mx_opt_default_t small[] = {{"--count", "128", "the inputs are short"}, {NULL}};
  assert_ok(parse(&a, small, NULL, "-n", "x", NULL));
  assert_int_equal(a.count, 128);
  /* The variable and the flag still come first. */
  setenv("MX_TEST_COUNT", "200", 1);
  assert_ok(parse(&a, small, NULL, "-n", "x", NULL));
  assert_int_equal(a.count, 200);
  mx_opt_cmd_t c = test_cmd(&a, small);
  char *h = help_text(&c);
  assert_non_null(strstr(h, "default 128 here: the inputs are short]"));
  assert_null(strstr(h, "default 512"));
  free(h);
}

/* The KV cache type a command line gives a session. */
static mx_dtype_t session_kv(int argc, char **argv) {
  mx_cli_session_args_t s = {0};
  mx_opt_cmd_t c = {.prog = "mlxcel t", .sets = {mx_cli_session_set(&s, MX_CLI_MODEL | MX_CLI_GRAPH)}};
  bool help;
  mx_session_options_t so;
  assert_ok(mx_opt_parse(&c, argc, argv, &help));
  assert_ok(mx_cli_session_options(&s, &so));
  return so.kv;
}

/* The shared session rows: a command gets only the parts it takes, with one default each. */
static void session_rows(void **state) {
  (void)state;
  unsetenv("MLXCEL_XLA_DEVICE");
  unsetenv("MLXCEL_XLA_PRECISION");
  unsetenv("MLXCEL_XLA_KV_PRECISION");
  unsetenv("MLXCEL_XLA_CONTEXT_CAPACITY");
  unsetenv("MLXCEL_XLA_CUDA_TARGET");
  unsetenv("MLXCEL_XLA_ROCM_TARGET");
  mx_cli_session_args_t s = {0};
  mx_opt_cmd_t c = {.prog = "mlxcel t", .sets = {mx_cli_session_set(&s, MX_CLI_MODEL | MX_CLI_DEVICE | MX_CLI_GRAPH)}};
  char *argv[] = {"t", "-m", "model.gguf", "--precision=f16", "--cuda-target", "sm_80", NULL};
  bool help;
  assert_ok(mx_opt_parse(&c, 6, argv, &help));
  mx_session_options_t so;
  assert_ok(mx_cli_session_options(&s, &so));
  assert_string_equal(so.model_path, "model.gguf");
  assert_string_equal(so.device, "local-task");
  assert_string_equal(so.target.cuda_target, "sm_80");
  assert_null(so.target.rocm_target);
  assert_int_equal(so.precision, MX_F16);
  assert_int_equal(so.kv, MX_F16); /* the cache follows the precision unless asked otherwise */
  assert_int_equal(so.capacity, 0); /* the session takes the model's maximum, at most 8192 */
  assert_int_equal(so.slots, 0);
  assert_null(so.vmfb);
  /* The parts not taken are not options of the command. */
  char *vmfb[] = {"t", "-m", "m", "--vmfb", "x.vmfb", NULL};
  assert_status(mx_opt_parse(&c, 5, vmfb, &help), MX_STAGE_USAGE, "unknown option '--vmfb'");
  /* One lower bound for --context, the session's own. */
  char *ctx[] = {"t", "-m", "m", "--context", "15", NULL};
  assert_status(mx_opt_parse(&c, 5, ctx, &help), MX_STAGE_USAGE, "--context must be 0 or a whole number from 16 to 1048576");
  ctx[4] = "-0x";
  assert_status(mx_opt_parse(&c, 5, ctx, &help), MX_STAGE_USAGE, "--context must be 0 or a whole number");
  ctx[4] = "0";
  assert_ok(mx_opt_parse(&c, 5, ctx, &help));
  assert_int_equal(s.context, 0);
  ctx[4] = "16";
  assert_ok(mx_opt_parse(&c, 5, ctx, &help));
  assert_int_equal(s.context, 16);
  /* The cache follows bf16 too; f32 asked for at a low precision, by flag or by environment. */
  char *kv32[] = {"t", "-m", "m", "--precision", "bf16", "--kv-precision", "f32", NULL};
  assert_int_equal(session_kv(5, kv32), MX_BF16);
  assert_int_equal(session_kv(7, kv32), MX_F32);
  setenv("MLXCEL_XLA_KV_PRECISION", "f32", 1);
  assert_int_equal(session_kv(5, kv32), MX_F32);
  unsetenv("MLXCEL_XLA_KV_PRECISION");
  setenv("MLXCEL_XLA_DEVICE", "local-sync", 1);
  assert_ok(mx_opt_parse(&c, 3, argv, &help));
  assert_string_equal(s.device, "local-sync");
  unsetenv("MLXCEL_XLA_DEVICE");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(defaults_apply, setup),
      cmocka_unit_test_setup(flag_beats_env, setup),
      cmocka_unit_test_setup(empty_env_is_unset, setup),
      cmocka_unit_test_setup(int_bounds, setup),
      cmocka_unit_test_setup(float_and_enum, setup),
      cmocka_unit_test_setup(equals_form, setup),
      cmocka_unit_test_setup(list_with_maximum, setup),
      cmocka_unit_test_setup(switches, setup),
      cmocka_unit_test_setup(unknown_and_missing, setup),
      cmocka_unit_test_setup(excludes, setup),
      cmocka_unit_test_setup(help_stops_the_parse, setup),
      cmocka_unit_test_setup(help_lists_every_row, setup),
      cmocka_unit_test_setup(command_default_overrides_the_row, setup),
      cmocka_unit_test_setup(session_rows, setup),
  };
  return cmocka_run_group_tests_name("cli/options", tests, NULL, NULL);
}
