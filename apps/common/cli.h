/*
 * Command-line helpers shared by the papcoll programs: a small long-option
 * parser and strict number parsers.
 *
 * Everything here is pure (no MPI, no printing): under mpirun every rank
 * parses the same argv, and the program decides which rank reports an error.
 * Parsers return 0 on success and -1 on failure; the caller words the error,
 * because only it knows what the option means ("--size: expected ...").
 */
#ifndef APPS_CLI_H
#define APPS_CLI_H

#include <stddef.h>
#include <stdint.h>

/* One long option.  The table is filled by the program, values by cli_parse. */
typedef struct {
    const char *name;  /* without the leading "--", e.g. "size" */
    const char *arg;   /* metavariable for usage ("N"), NULL for a flag */
    const char *help;  /* one line of usage text */
    const char *value; /* set by cli_parse: the argument, "1" for a flag, NULL if absent */
} cli_option_t;

/*
 * Parses argv[1..argc-1] as "--name value", "--name=value" or "--flag".
 * A repeated option keeps its last value.  On error writes one line (without
 * program name) into err and returns -1: unknown option, missing argument,
 * argument given to a flag, or a positional argument.
 */
int cli_parse(int argc, char **argv, cli_option_t *opts, int nopts, char *err, size_t errlen);

/* Prints "  --name ARG   help" lines, aligned, for usage texts. */
void cli_print_options(const cli_option_t *opts, int nopts);

/* Strict integer in [min, max]: the whole text must be a decimal number. */
int cli_parse_long(const char *text, long min, long max, long *out);

/* Strict unsigned 64-bit integer (decimal or 0x hexadecimal). */
int cli_parse_u64(const char *text, uint64_t *out);

/* Strict finite double: the whole text must be a number. */
int cli_parse_double(const char *text, double *out);

/* Positive element count with an optional K (1024) or M (1048576) suffix. */
int cli_parse_count(const char *text, long long *out);

/*
 * Splits text at sep into a NULL-terminated array of fresh strings.
 * Empty items ("a,,b", trailing ",") are an error (-1).  Free with
 * cli_list_free.
 */
int cli_split(const char *text, char sep, char ***items, int *n);

/* Frees a list from cli_split (NULL is fine). */
void cli_list_free(char **items);

/*
 * The rank in 0..nprocs-1 that the environment variable name gives (the
 * programs' test-only fault switches), -1 when it is unset or empty.
 * Returns 0, or -1 with "NAME: expected a rank in 0..P-1, got 'v'" in err.
 */
int cli_env_rank(const char *name, int nprocs, int *rank, char *err, size_t errlen);

#endif /* APPS_CLI_H */
