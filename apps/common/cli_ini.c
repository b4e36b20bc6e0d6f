/*
 * Option values from an INI file (see cli_ini.h).
 */
#include "cli_ini.h"

#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    const char *section;
    const char *const *other;
    const char *const *refused;
    cli_option_t *opts;
    cli_ini_t *ini;
    char *err;
    size_t errlen;
} load_t;

static int in_list(const char *const *list, const char *s)
{
    int i;

    for (i = 0; list != NULL && list[i] != NULL; i++)
        if (strcmp(list[i], s) == 0)
            return i;
    return -1;
}

/* Option index of a key ("verify_every" matches "verify-every"), or -1. */
static int find_key(const load_t *l, const char *key)
{
    char name[64];
    size_t i;

    for (i = 0; key[i] != '\0' && i + 1 < sizeof name; i++)
        name[i] = key[i] == '_' ? '-' : key[i];
    name[i] = '\0';
    if (key[i] != '\0' || in_list(l->refused, name) >= 0)
        return -1;
    for (i = 0; i < (size_t)l->ini->nopts; i++)
        if (strcmp(l->opts[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* A flag's value: "1" for true, NULL for false; -1 when it is neither. */
static int flag_value(const char *v, const char **out)
{
    static const char *const yes[] = {"1", "true", "yes", "on", NULL};
    static const char *const no[] = {"0", "false", "no", "off", NULL};

    *out = in_list(yes, v) >= 0 ? "1" : NULL;
    return in_list(yes, v) >= 0 || in_list(no, v) >= 0 ? 0 : -1;
}

static int store(load_t *l, int i, const char *value)
{
    const char *v = value;

    if (l->opts[i].arg == NULL && flag_value(value, &v) != 0) {
        snprintf(l->err, l->errlen, "%s: expected true or false, got '%s'", l->opts[i].name, value);
        return 0;
    }
    free(l->ini->values[i]);
    l->ini->values[i] = NULL;
    if (v != NULL && (l->ini->values[i] = strdup(v)) == NULL) {
        snprintf(l->err, l->errlen, "out of memory");
        return 0;
    }
    return 1;
}

/* inih callback: returning 0 makes ini_parse report this line. */
static int on_key(void *user, const char *section, const char *key, const char *value)
{
    load_t *l = user;
    int other = in_list(l->other, section), i;

    if (other >= 0 && other < CLI_INI_MAX_OTHER) {
        l->ini->others |= 1u << other;
        return 1;
    }
    if (strcmp(section, l->section) != 0) {
        snprintf(l->err, l->errlen, "key '%s' outside section [%s]", key, l->section);
        return 0;
    }
    if ((i = find_key(l, key)) < 0) {
        snprintf(l->err, l->errlen, "unknown key '%s' in [%s]", key, l->section);
        return 0;
    }
    return store(l, i, value);
}

/* ini_parse on a regular file only (fopen opens a directory, and inih
 * then reads it as an empty file): -1 cannot open, -3 not a regular file. */
static int parse_regular(const char *path, load_t *l)
{
    struct stat st;
    FILE *f = fopen(path, "r");
    int rc;

    if (f == NULL)
        return -1;
    rc = fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) ? -3 : ini_parse_file(f, on_key, l);
    fclose(f);
    return rc;
}

int cli_ini_load(const char *path, const char *section, const char *const *other, const char *const *refused,
                 cli_option_t *opts, int nopts, cli_ini_t *ini, char *err, size_t errlen)
{
    char msg[256] = "";
    load_t l = {section, other, refused, opts, ini, msg, sizeof msg};
    int rc, i;

    ini->nopts = nopts;
    ini->others = 0;
    if ((ini->values = calloc((size_t)nopts, sizeof *ini->values)) == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    rc = parse_regular(path, &l);
    if (rc == -1)
        snprintf(err, errlen, "cannot read '%s'", path);
    else if (rc == -3)
        snprintf(err, errlen, "'%s' is not a regular file", path);
    else if (rc == -2)
        snprintf(err, errlen, "out of memory reading '%s'", path);
    else if (rc > 0)
        snprintf(err, errlen, "'%s' line %d: %s", path, rc, msg[0] ? msg : "syntax error");
    if (rc != 0)
        return -1;
    /* The command line wins; what remains in values[] came from the file. */
    for (i = 0; i < nopts; i++) {
        if (opts[i].value == NULL) {
            opts[i].value = ini->values[i];
            continue;
        }
        free(ini->values[i]);
        ini->values[i] = NULL;
    }
    return 0;
}

int cli_ini_from_file(const cli_ini_t *ini, int i)
{
    return ini->values != NULL && i >= 0 && i < ini->nopts && ini->values[i] != NULL;
}

void cli_ini_free(cli_ini_t *ini)
{
    int i;

    for (i = 0; ini->values != NULL && i < ini->nopts; i++)
        free(ini->values[i]);
    free(ini->values);
    ini->values = NULL;
    ini->nopts = 0;
}

/* The program's own file: its section over the options the command line left unset. */
static int load_file(cli_opts_t *o, char *err, size_t errlen)
{
    const cli_spec_t *sp = o->spec;
    const char *refused[3] = {sp->table[sp->config].name, sp->help >= 0 ? sp->table[sp->help].name : NULL,
                              NULL};
    char msg[384];

    if (sp->config < 0 || sp->section == NULL || (o->file = o->opt[sp->config].value) == NULL)
        return CLI_OK;
    if (cli_opts_nonempty(o, sp->config, "a file name", err, errlen) != CLI_OK)
        return CLI_ERROR;
    if (cli_ini_load(o->file, sp->section, sp->others, refused, o->opt, sp->nopts, &o->ini, msg,
                     sizeof msg) != 0) {
        snprintf(err, errlen, "--%s: %s", sp->table[sp->config].name, msg);
        return CLI_ERROR;
    }
    o->others = o->ini.others;
    return CLI_OK;
}

int cli_opts_parse(cli_opts_t *o, const cli_spec_t *spec, int argc, char **argv, char *err, size_t errlen)
{
    char msg[256];

    memset(o, 0, sizeof *o);
    o->spec = spec;
    if (spec->nopts > CLI_OPTS_MAX) {
        snprintf(err, errlen, "%s: %d options, at most %d", spec->program, spec->nopts, CLI_OPTS_MAX);
        return CLI_ERROR;
    }
    memcpy(o->opt, spec->table, (size_t)spec->nopts * sizeof *o->opt);
    if (cli_parse(argc, argv, o->opt, spec->nopts, msg, sizeof msg) != 0) {
        snprintf(err, errlen, "%s (see %s --help)", msg, spec->program);
        return CLI_ERROR;
    }
    if (spec->help >= 0 && o->opt[spec->help].value != NULL)
        return CLI_HELP;
    return load_file(o, err, errlen);
}

const char *cli_opts_origin(const cli_opts_t *o, int i, char *buf, size_t len)
{
    if (cli_ini_from_file(&o->ini, i))
        snprintf(buf, len, "'%s': %s", o->file, o->opt[i].name);
    else
        snprintf(buf, len, "--%s", o->opt[i].name);
    return buf;
}

int cli_opts_fail(const cli_opts_t *o, int i, const char *expected, char *err, size_t errlen)
{
    char where[320];

    snprintf(err, errlen, "%s: expected %s, got '%s'", cli_opts_origin(o, i, where, sizeof where), expected,
             o->opt[i].value ? o->opt[i].value : "");
    return CLI_ERROR;
}

int cli_opts_long(const cli_opts_t *o, int i, long min, long max, const char *expected, long *out, char *err,
                  size_t errlen)
{
    if (o->opt[i].value != NULL && cli_parse_long(o->opt[i].value, min, max, out) != 0)
        return cli_opts_fail(o, i, expected, err, errlen);
    return CLI_OK;
}

int cli_opts_nonempty(const cli_opts_t *o, int i, const char *expected, char *err, size_t errlen)
{
    if (o->opt[i].value != NULL && o->opt[i].value[0] == '\0')
        return cli_opts_fail(o, i, expected, err, errlen);
    return CLI_OK;
}

int cli_opts_nonneg(const cli_opts_t *o, int i, const char *expected, double *out, char *err, size_t errlen)
{
    if (o->opt[i].value != NULL && (cli_parse_double(o->opt[i].value, out) != 0 || *out < 0))
        return cli_opts_fail(o, i, expected, err, errlen);
    return CLI_OK;
}

void cli_opts_free(cli_opts_t *o)
{
    cli_ini_free(&o->ini);
}
