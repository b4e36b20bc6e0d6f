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

#endif /* APPS_CLI_INI_H */
