/* The option parser and help printer over the tables of options.h. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"

#define HELP_WIDTH 100 /* columns the help is wrapped to */

/* One row as one command sees it: where its field is, which default applies, what the command
 * line said. */
typedef struct {
  const mx_opt_t *row;
  char *field; /* NULL when the table is only printed */
  const char *def, *why;
  const char *text; /* the flag's last value */
  bool given;
} entry_t;

typedef struct {
  const mx_opt_cmd_t *cmd;
  entry_t e[MX_OPT_MAX_ROWS];
  int n;
} table_t;

static size_t kind_size(mx_opt_kind_t k) {
  switch (k) {
  case MX_OPT_INT: return sizeof(long);
  case MX_OPT_FLOAT: return sizeof(double);
  case MX_OPT_SWITCH: return sizeof(int);
  case MX_OPT_LIST: return sizeof(mx_opt_list_t);
  default: return sizeof(const char *);
  }
}

static bool takes_value(const mx_opt_t *r) { return r->kind != MX_OPT_SWITCH; }

/* The entry whose long or short flag is the first `len` characters of `a`. */
static entry_t *find(table_t *t, const char *a, size_t len) {
  for (int i = 0; i < t->n; i++) {
    const mx_opt_t *r = t->e[i].row;
    if ((strlen(r->name) == len && !strncmp(r->name, a, len)) ||
        (r->alias && strlen(r->alias) == len && !strncmp(r->alias, a, len)))
      return &t->e[i];
  }
  return NULL;
}

/* The command's rows in order, with its default overrides in place. The asserts catch a mistake in
 * a table the first time the command runs at all (its --help included). */
static void collect(const mx_opt_cmd_t *cmd, table_t *t) {
  t->cmd = cmd;
  t->n = 0;
  for (int s = 0; s < MX_OPT_MAX_SETS && cmd->sets[s].rows; s++) {
    const mx_opt_set_t *set = &cmd->sets[s];
    for (int i = 0; i < set->n; i++) {
      const mx_opt_t *r = &set->rows[i];
      if (r->part && !(r->part & set->parts)) continue;
      assert(t->n < MX_OPT_MAX_ROWS && r->name && r->help);
      assert(r->size == kind_size(r->kind));
      assert(takes_value(r) && r->kind != MX_OPT_LIST ? 1 : !r->env && !r->def);
      assert(r->kind != MX_OPT_LIST || (r->hi >= 1 && r->hi <= MX_OPT_LIST_MAX));
      t->e[t->n++] = (entry_t){.row = r, .field = set->dst ? (char *)set->dst + r->offset : NULL, .def = r->def};
    }
  }
  for (const mx_opt_default_t *d = cmd->defaults; d && d->name; d++) {
    entry_t *e = find(t, d->name, strlen(d->name));
    assert(e && "a default override names an option the command lacks");
    e->def = d->def;
    e->why = d->why;
  }
}

/* A usage error about argument `a` (its first `len` characters), whose remedy is the command's help. */
static mx_status_t see_help(const table_t *t, const char *fmt, const char *a, size_t len) {
  char remedy[128];
  snprintf(remedy, sizeof remedy, "run `%s --help`", t->cmd->prog);
  return mx_status_make(MX_STAGE_USAGE, remedy, fmt, (int)len, a);
}

/* A repeatable value: appended, within the row's limit. */
static mx_status_t append(const table_t *t, entry_t *e, const char *v) {
  mx_opt_list_t *l = (mx_opt_list_t *)e->field;
  const mx_opt_t *r = e->row;
  if (!v[0] || l->n >= r->hi) {
    char what[96];
    snprintf(what, sizeof what, "give at most %ld non-empty %s values", r->hi, r->name);
    return see_help(t, "%.*s", what, strlen(what));
  }
  l->v[l->n++] = v;
  e->given = true;
  return NULL;
}

/* Reads argv in order: switches and lists are stored at once, other values kept as text for
 * resolve(), so an error in a value after -h/--help does not hide the help. */
static mx_status_t scan(table_t *t, int argc, char **argv, bool *help) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      *help = true;
      return NULL;
    }
    const char *eq = a[0] == '-' ? strchr(a, '=') : NULL;
    size_t len = eq ? (size_t)(eq - a) : strlen(a);
    entry_t *e = a[0] == '-' ? find(t, a, len) : NULL;
    if (!e) return see_help(t, "unknown option '%.*s'", a, strlen(a));
    if (!takes_value(e->row)) {
      if (eq) return see_help(t, "option %.*s takes no value", a, len);
      *(int *)e->field = e->row->set ? e->row->set : 1;
      e->given = true;
      continue;
    }
    const char *v = eq ? eq + 1 : NULL;
    if (!v && i + 1 >= argc) return see_help(t, "option %.*s needs a value", a, len);
    if (!v) v = argv[++i];
    if (e->row->kind == MX_OPT_LIST) {
      MX_RETURN_IF_ERROR(append(t, e, v));
    } else {
      e->text = v;
      e->given = true;
    }
  }
  return NULL;
}

/* Whether `text` is one of the '|'-separated `choices`. */
static bool is_choice(const char *choices, const char *text) {
  size_t n = strlen(text);
  for (const char *p = choices; *p;) {
    size_t w = strcspn(p, "|");
    if (w == n && !strncmp(p, text, n)) return true;
    p += w + (p[w] == '|');
  }
  return false;
}

/* A value that does not fit its row. The message names where the value came from, so that a
 * stale variable is not mistaken for a bad flag. */
static mx_status_t bad_value(const table_t *t, const entry_t *e, const char *text, bool from_env, const char *want) {
  const mx_opt_t *r = e->row;
  char remedy[192];
  if (from_env) snprintf(remedy, sizeof remedy, "fix or unset %s (%s overrides it)", r->env, r->name);
  else snprintf(remedy, sizeof remedy, "run `%s --help`", t->cmd->prog);
  return mx_status_make(MX_STAGE_USAGE, remedy, "%s must be %s, not '%s'", from_env ? r->env : r->name, want, text);
}

/* Checks `text` against the row's kind and writes the field; NULL text clears it. */
static mx_status_t store(const table_t *t, const entry_t *e, const char *text, bool from_env) {
  const mx_opt_t *r = e->row;
  char want[160];
  char *end;
  switch (r->kind) {
  case MX_OPT_INT: {
    errno = 0;
    long v = text ? strtol(text, &end, 10) : 0;
    bool zero = (r->flags & MX_OPT_ZERO) && text && text[0] && !*end && v == 0;
    if (text && (!text[0] || *end || errno == ERANGE || ((v < r->lo || v > r->hi) && !zero))) {
      snprintf(want, sizeof want, "%sa whole number from %ld to %ld", r->flags & MX_OPT_ZERO ? "0 or " : "", r->lo, r->hi);
      return bad_value(t, e, text, from_env, want);
    }
    *(long *)e->field = v;
    return NULL;
  }
  case MX_OPT_FLOAT: {
    double v = text ? strtod(text, &end) : 0;
    if (text && (!text[0] || *end)) return bad_value(t, e, text, from_env, "a number");
    *(double *)e->field = v;
    return NULL;
  }
  case MX_OPT_ENUM:
    if (text && !is_choice(r->choices, text)) {
      snprintf(want, sizeof want, "one of %s", r->choices);
      return bad_value(t, e, text, from_env, want);
    }
    /* fall through */
  default:
    *(const char **)e->field = text;
    return NULL;
  }
}

/* What the command line leaves out, or gives twice over: checked before any value, as a missing
 * -m is the likelier mistake to report. */
static mx_status_t check_presence(table_t *t) {
  for (int i = 0; i < t->n; i++) {
    entry_t *e = &t->e[i];
    const mx_opt_t *r = e->row;
    const char *env = r->env ? getenv(r->env) : NULL;
    if ((r->flags & MX_OPT_REQUIRED) && !e->given && !(env && env[0]) && !e->def) {
      char what[96];
      snprintf(what, sizeof what, "%s%s%s%s%s", r->alias ? r->alias : "", r->alias ? "/" : "", r->name,
               r->metavar ? " " : "", r->metavar ? r->metavar : "");
      return see_help(t, "give %.*s", what, strlen(what));
    }
    entry_t *other = r->excludes && e->given ? find(t, r->excludes, strlen(r->excludes)) : NULL;
    if (other && other->given)
      return mx_status_make(MX_STAGE_USAGE, "use one of them", "%s and %s exclude each other", r->name, other->row->name);
  }
  return NULL;
}

/* Every value row: the flag, else the variable when set and non-empty, else the default. */
static mx_status_t resolve(table_t *t) {
  MX_RETURN_IF_ERROR(check_presence(t));
  for (int i = 0; i < t->n; i++) {
    entry_t *e = &t->e[i];
    if (!takes_value(e->row) || e->row->kind == MX_OPT_LIST) continue;
    const char *env = e->given || !e->row->env ? NULL : getenv(e->row->env);
    bool from_env = env && env[0];
    MX_RETURN_IF_ERROR(store(t, e, e->given ? e->text : from_env ? env : e->def, from_env));
  }
  return NULL;
}

mx_status_t mx_opt_parse(const mx_opt_cmd_t *cmd, int argc, char **argv, bool *help) {
  table_t t;
  collect(cmd, &t);
  *help = false;
  for (int i = 0; i < t.n; i++) {
    if (t.e[i].row->kind == MX_OPT_SWITCH) *(int *)t.e[i].field = 0;
    if (t.e[i].row->kind == MX_OPT_LIST) memset(t.e[i].field, 0, sizeof(mx_opt_list_t));
  }
  MX_RETURN_IF_ERROR(scan(&t, argc, argv, help));
  return *help ? NULL : resolve(&t);
}

/* Prints `p` from column `col`, breaking between words before HELP_WIDTH; continuation lines start
 * at column `indent`. A '\n' in `p` breaks the line and keeps the spaces after it (for examples). */
static void wrap(FILE *f, const char *p, int col, int indent) {
  int start = col;
  while (*p) {
    if (*p == '\n') {
      fprintf(f, "\n%*s", indent, "");
      col = indent;
      for (p++; *p == ' '; p++, col++) fputc(' ', f);
      start = col;
      continue;
    }
    if (*p == ' ') {
      p++;
      continue;
    }
    int w = (int)strcspn(p, " \n");
    if (col > start && col + 1 + w > HELP_WIDTH) {
      fprintf(f, "\n%*s", indent, "");
      col = start = indent;
    } else if (col > start) {
      fputc(' ', f);
      col++;
    }
    fwrite(p, 1, (size_t)w, f);
    col += w;
    p += w;
  }
}

/* "-m, --model PATH" */
static void flag_text(const mx_opt_t *r, char *out, size_t cap) {
  const char *meta = !takes_value(r) ? NULL : r->metavar ? r->metavar : r->choices ? r->choices : "VALUE";
  snprintf(out, cap, "%s%s%s%s%s", r->alias ? r->alias : "", r->alias ? ", " : "", r->name, meta ? " " : "",
           meta ? meta : "");
}

/* "[16..1048576; env MLXCEL_XLA_CONTEXT_CAPACITY; default 128 here: why]", or "" */
static void trailer(const entry_t *e, char *out, size_t cap) {
  const mx_opt_t *r = e->row;
  size_t n = 0;
  out[0] = '\0';
#define PART(...) n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, __VA_ARGS__)
  if (r->kind == MX_OPT_INT) PART("%s%s%ld..%ld", n ? "; " : "[", r->flags & MX_OPT_ZERO ? "0 or " : "", r->lo, r->hi);
  if (r->kind == MX_OPT_LIST) PART("%srepeatable, up to %ld", n ? "; " : "[", r->hi);
  if (r->flags & MX_OPT_REQUIRED) PART("%srequired", n ? "; " : "[");
  if (r->excludes) PART("%snot with %s", n ? "; " : "[", r->excludes);
  if (r->env) PART("%senv %s", n ? "; " : "[", r->env);
  if (e->def) PART("%sdefault %s%s%s", n ? "; " : "[", e->def, e->why ? " here: " : "", e->why ? e->why : "");
  if (n) PART("]");
#undef PART
}

void mx_opt_help(const mx_opt_cmd_t *cmd, FILE *f) {
  table_t t;
  collect(cmd, &t);
  const char *syn = cmd->synopsis ? cmd->synopsis : "";
  fprintf(f, "usage: %s%s%s\n\n", cmd->prog, syn[0] ? " " : "", syn);
  wrap(f, cmd->about, 0, 0);
  fprintf(f, "\n\noptions:\n");
  char left[128], right[512];
  int width = (int)strlen("-h, --help");
  for (int i = 0; i < t.n; i++) {
    flag_text(t.e[i].row, left, sizeof left);
    if ((int)strlen(left) > width) width = (int)strlen(left);
  }
  if (width > 30) width = 30; /* a longer flag takes a line of its own */
  for (int i = 0; i <= t.n; i++) {
    const char *help = "print this help and exit";
    snprintf(left, sizeof left, "-h, --help");
    right[0] = '\0';
    if (i < t.n) {
      flag_text(t.e[i].row, left, sizeof left);
      help = t.e[i].row->help;
      trailer(&t.e[i], right, sizeof right);
    }
    fprintf(f, "  %-*s  ", width, left);
    if ((int)strlen(left) > width) fprintf(f, "\n%*s", width + 4, "");
    char line[768];
    snprintf(line, sizeof line, "%s%s%s", help, right[0] ? " " : "", right);
    wrap(f, line, width + 4, width + 4);
    fputc('\n', f);
  }
}
