/* The command line's options as tables: each option is one row (its flags, the MLXCEL_* variable
 * it overrides, its default, its kind and bounds, its help line), one parser reads argv against a
 * command's rows, and the same rows print its --help. So the help cannot list an option the parser
 * does not know, or a default it does not apply.
 *
 * A command is a list of row sets, each writing into its own struct: the command's own rows, and
 * shared groups such as the session rows of cli.h. A command may override a shared row's default;
 * the override and its reason show in its help. */
#ifndef MX_CLI_OPTIONS_H
#define MX_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/status.h"

/* What a row's value is, and the C type of the field it is written to. */
typedef enum {
  MX_OPT_STRING, /* const char *: the text as given (NULL when absent and no default) */
  MX_OPT_INT,    /* long: a whole number in [lo, hi] */
  MX_OPT_FLOAT,  /* double: any number */
  MX_OPT_ENUM,   /* const char *: one of `choices`, e.g. "f32|f16|bf16" */
  MX_OPT_SWITCH, /* int: takes no value; the flag stores `set` (1 when 0), else the field is 0 */
  MX_OPT_LIST,   /* mx_opt_list_t: repeatable, each value non-empty, at most `hi` of them */
} mx_opt_kind_t;

#define MX_OPT_LIST_MAX 16
typedef struct {
  const char *v[MX_OPT_LIST_MAX];
  int n;
} mx_opt_list_t;

enum {
  MX_OPT_REQUIRED = 1, /* a value must come from the flag, the variable or the default */
  MX_OPT_ZERO = 2,     /* INT: 0 is accepted besides [lo, hi] (it means "choose for me") */
};

typedef struct {
  const char *name;     /* long flag with its dashes: "--context" */
  const char *alias;    /* short flag ("-m") or NULL */
  mx_opt_kind_t kind;
  const char *metavar;  /* the value's name in the help ("N"); ENUM rows default to their choices */
  const char *env;      /* the MLXCEL_* variable read when the flag is absent (value rows only), or NULL */
  const char *def;      /* default, as text parsed like a value; NULL: none */
  long lo, hi;          /* INT: bounds; LIST: hi is the most values */
  const char *choices;  /* ENUM: "a|b|c" */
  int set;              /* SWITCH: the value stored (0 means 1), so two switches can share a field */
  unsigned flags;       /* MX_OPT_REQUIRED */
  const char *excludes; /* the name of a row that may not be given together with this one */
  unsigned part;        /* a bit a set selects the row by (0: always in) */
  size_t offset, size;  /* the field in the set's struct, and its size (checked against the kind) */
  const char *help;     /* one line */
} mx_opt_t;

/* A row for field `field` of struct T; the rest by designator, e.g.
 * MX_OPT_ROW(args_t, steps, .name = "--steps", .kind = MX_OPT_INT, .lo = 1, .hi = 64, .help = "...") */
#define MX_OPT_ROW(T, field, ...) {.offset = offsetof(T, field), .size = sizeof(((T *)0)->field), __VA_ARGS__}

/* Rows whose fields live in `dst`; only those with part 0 or a bit in `parts` belong to the command. */
typedef struct {
  const mx_opt_t *rows;
  int n;
  void *dst;
  unsigned parts;
} mx_opt_set_t;

/* The set of a whole array of rows. */
#define MX_OPT_SET(rows, dst) {rows, (int)(sizeof(rows) / sizeof((rows)[0])), dst, 0}

/* A command's default for a shared row in place of the row's own, and why it differs. */
typedef struct {
  const char *name, *def, *why;
} mx_opt_default_t;

#define MX_OPT_MAX_SETS 4
#define MX_OPT_MAX_ROWS 48

typedef struct {
  const char *prog;     /* "mlxcel generate": usage line and remedies */
  const char *synopsis; /* what follows prog in the usage line */
  const char *about;    /* one paragraph; '\n' starts a new line */
  mx_opt_set_t sets[MX_OPT_MAX_SETS]; /* unused ones have rows NULL */
  const mx_opt_default_t *defaults;   /* NULL or ended by a row with name NULL */
} mx_opt_cmd_t;

/* Reads argv[1..argc) into the sets' structs. Arguments are taken in order; -h or --help sets
 * *help and stops there (nothing after it is read or checked; the fields are then unspecified).
 * Otherwise every value row gets the flag's value, else its variable's when set and non-empty,
 * else its default, checked against its kind; a failure is a MX_STAGE_USAGE status. */
MX_MUST_USE mx_status_t mx_opt_parse(const mx_opt_cmd_t *cmd, int argc, char **argv, bool *help);

/* The usage line, the paragraph and one line per row, with its variable and default. */
void mx_opt_help(const mx_opt_cmd_t *cmd, FILE *f);

#endif
