/*
 * Option values from an INI file (libinih), for programs whose long options
 * double as configuration keys: `--verify-every 10` on the command line is
 * `verify-every = 10` (or `verify_every = 10`) in the program's section.
 *
 * The command line wins: a key sets an option only when cli_parse left its
 * value NULL.  Flags (options without argument) take true/yes/on/1 or
 * false/no/off/0.  Pure (no MPI, no printing), like cli.h.
 */
#ifndef APPS_CLI_INI_H
#define APPS_CLI_INI_H

#include <stddef.h>

#include "cli.h"

#define CLI_INI_MAX_OTHER 8

typedef struct {
    char **values; /* per option: the string from the file, or NULL */
    int nopts;
    unsigned others; /* bit i: section other[i] occurs in the file */
} cli_ini_t;

/*
 * Reads section `section` of path into the options the command line left
 * unset.  Sections named in other (NULL-terminated, at most
 * CLI_INI_MAX_OTHER; e.g. "papcoll", read by someone else) are skipped and
 * noted in ini->others.  Errors, as one line in err: the file cannot be
 * read, a syntax error, another section, an unknown key or one named in
 * refused (NULL-terminated, e.g. "config", "help"), a bad flag value.
 * Returns 0 or -1; release with cli_ini_free in both cases.
 */
int cli_ini_load(const char *path, const char *section, const char *const *other, const char *const *refused,
                 cli_option_t *opts, int nopts, cli_ini_t *ini, char *err, size_t errlen);

/* 1 when option i has its value from the file. */
int cli_ini_from_file(const cli_ini_t *ini, int i);

void cli_ini_free(cli_ini_t *ini);

/*
 * A program's configuration parser, shared by papbench, fft and pic: its
 * option table on the command line over the options' keys in a section of
 * an INI file (--config FILE), with the errors worded one way.  Statuses:
 */
enum { CLI_OK = 0, CLI_HELP = 1, CLI_ERROR = 2 };

#define CLI_OPTS_MAX 40

/* What a program declares. */
typedef struct {
    const char *program;       /* "fft": errors say "(see fft --help)" */
    const cli_option_t *table; /* the options, values NULL */
    int nopts;                 /* at most CLI_OPTS_MAX */
    int config, help;          /* indices of --config FILE and --help in table, -1: none */
    const char *section;       /* the file's section of the program's keys; NULL: --config is not ours */
    const char *const *others; /* the file's sections read by someone else ("papcoll"), NULL-terminated */
} cli_spec_t;

/* The parsed options: opt[i].value as cli_parse leaves it, or from the file. */
typedef struct {
    const cli_spec_t *spec;
    cli_option_t opt[CLI_OPTS_MAX];
    const char *file; /* the program's own --config FILE, NULL: none */
    unsigned others;  /* bit i: section spec->others[i] occurs in the file */
    cli_ini_t ini;    /* owns the values taken from the file */
} cli_opts_t;

/*
 * Parses argv, then the file's section into the options the command line
 * left unset (the keys --config and --help are refused there).  Returns
 * CLI_OK, CLI_HELP (--help was given) or CLI_ERROR with one line in err:
 * "unknown option '--x' (see fft --help)", "--config: 'f.ini' line 3: ...".
 * Release with cli_opts_free in every case.
 */
int cli_opts_parse(cli_opts_t *o, const cli_spec_t *spec, int argc, char **argv, char *err, size_t errlen);

/* Where option i's value came from: "--name", or "'file': name" for a key of the file. */
const char *cli_opts_origin(const cli_opts_t *o, int i, char *buf, size_t len);

/* One error line "<origin>: expected <expected>, got '<value>'"; returns CLI_ERROR. */
int cli_opts_fail(const cli_opts_t *o, int i, const char *expected, char *err, size_t errlen);

/* Option i as an integer in [min, max], when given (*out keeps its default otherwise). */
int cli_opts_long(const cli_opts_t *o, int i, long min, long max, const char *expected, long *out, char *err,
                  size_t errlen);

/* Option i, when given, must not be empty ("--out ''"): CLI_ERROR naming expected. */
int cli_opts_nonempty(const cli_opts_t *o, int i, const char *expected, char *err, size_t errlen);

/* Option i as a number >= 0, when given. */
int cli_opts_nonneg(const cli_opts_t *o, int i, const char *expected, double *out, char *err, size_t errlen);

void cli_opts_free(cli_opts_t *o);

#endif /* APPS_CLI_INI_H */
