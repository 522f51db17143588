/* A stand-in for iree-compile (a shell script) for the tests of running and caching compiles without
 * the toolchain (test_compile.c, test_cache.c). MLXCEL_FAKE_COMPILE picks what it does:
 *   ok      copies its input MLIR to the output (so the "module" is deterministic) and exits 0
 *   error   prints an MLIR diagnostic with "error:" and exits 1
 *   disk    prints what iree-compile 3.13 prints writing to a full disk (checked with -o /dev/full)
 *   silent  exits 1 without a word
 *   hang    creates the output and sleeps (exec, so its pid stays the one it recorded)
 * Every run appends a line to <dir>/runs and writes its pid to <dir>/pid. (Not for signal masks: the
 * shell resets the mask it inherits; test_compile.c runs itself as the compiler for that.) */
#ifndef MX_TESTS_FAKE_COMPILER_H
#define MX_TESTS_FAKE_COMPILER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char fake_compiler_script[] =
    "#!/bin/sh\n"
    "[ \"$1\" = --version ] && { echo 'IREE (fake compiler of the mlxcel unit tests)'; exit 0; }\n"
    "dir=$(dirname \"$0\") in= out= prev=\n"
    "for a in \"$@\"; do [ \"$prev\" = -o ] && out=$a; case $a in *.mlir) in=$a;; esac; prev=$a; done\n"
    "echo $$ > \"$dir/pid\"; echo run >> \"$dir/runs\"\n"
    "case ${MLXCEL_FAKE_COMPILE:-ok} in\n"
    "  ok) cp \"$in\" \"$out\" ;;\n"
    "  error) echo \"$in:1:1: error: 'func.return' op has 1 operands, but enclosing function returns 2\"; exit 1 ;;\n"
    "  disk) echo 'error opening input file: No space left on device'\n"
    "        echo 'LLVM ERROR: IO failure on output stream: No space left on device'; exit 1 ;;\n"
    "  silent) exit 1 ;;\n"
    "  hang) : > \"$out\"; exec sleep 30 ;;\n"
    "esac\n";

/* Writes the script as <dir>/iree-compile (executable) into `path`; 0 on success. */
static inline int fake_compiler_write(const char *dir, char *path, size_t cap) {
  snprintf(path, cap, "%s/iree-compile", dir);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fputs(fake_compiler_script, f);
  fclose(f);
  return chmod(path, 0755);
}

/* How many times the fake compiler ran (lines of <dir>/runs). */
static inline int fake_compiler_runs(const char *dir) {
  char path[4096], line[64];
  snprintf(path, sizeof path, "%s/runs", dir);
  FILE *f = fopen(path, "r");
  int n = 0;
  if (!f) return 0;
  while (fgets(line, sizeof line, f)) n++;
  fclose(f);
  return n;
}

/* The pid the last run recorded; 0 when none. */
static inline long fake_compiler_pid(const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/pid", dir);
  FILE *f = fopen(path, "r");
  long pid = 0;
  if (!f) return 0;
  if (fscanf(f, "%ld", &pid) != 1) pid = 0;
  fclose(f);
  return pid;
}

#endif
