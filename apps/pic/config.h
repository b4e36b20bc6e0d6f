/*
 * Configuration of the PIC proxy: command line over the [pic] section of an
 * INI file (--config) over the problem's defaults, parsed once into a struct
 * the rest of the program only reads.  Parsing is pure and identical on
 * every rank; every check that can fail happens here, before any work.
 */
#ifndef PIC_CONFIG_H
#define PIC_CONFIG_H

#include <stddef.h>

#include "app.h"
#include "cli_ini.h"
#include "problem.h"
#include "render.h"

#define PIC_MAX_IMAGE 4096

/* Test-only: this environment variable breaks the run on purpose so that
 * tests can prove the validation fails: "drop:R" (rank R loses a particle at
 * step 5), "field" (rank 0 halves the field after every solve: wrong physics).
 * Never set it for measurements. */
#define PIC_FAULT_ENV "PAPCOLL_PIC_TEST_FAULT"

typedef enum { PIC_FAULT_NONE = 0, PIC_FAULT_DROP = 1, PIC_FAULT_FIELD = 2 } pic_fault_t;

typedef struct {
    int nprocs;
    pic_problem_kind_t problem;
    long steps;
    long long particles; /* requested (the problem may round) */
    int nx, ny;
    double dt;
    int threads;
    pic_composite_mode_t composite;
    const char *composite_algo; /* as given (a reduce algorithm or policy, icet:S), NULL: the default */
    int icet;                   /* >= 0: IceT strategy (composite-algo icet:NAME) */
    long frame_every;           /* composite every K steps (0: never) */
    int frames;                 /* write PNG frames (needs out_dir) */
    int sparse;                 /* the background pixel is the compositing site's identity */
    int width, height;          /* image */
    long snapshot_every;        /* openPMD snapshot every M steps (0: never; needs out_dir) */
    const char *gather_algo, *scatter_algo; /* papcoll algorithms of the field sites, NULL: default */
    const char *out_dir;
    const char *trace_file;
    const char *config_file;
    int config_papcoll; /* config_file has a [papcoll] section */
    int quiet;
    pic_fault_t fault; /* test-only (PIC_FAULT_ENV) */
    int fault_rank;
    cli_opts_t opts; /* the options as given; owns the strings taken from the file */
} pic_config_t;

/* Parses argv (and --config FILE) for nprocs ranks: CLI_OK, CLI_HELP, or
 * CLI_ERROR with one line in err.  Release with pic_config_free in every case. */
int pic_config_parse(int argc, char **argv, int nprocs, pic_config_t *cfg, char *err, size_t errlen);

/* The effective configuration as INI text ([pic] section; a comment line
 * for the test-only fault). */
void pic_config_text(const pic_config_t *cfg, char *buf, size_t len);

/* Usage text to stdout. */
void pic_config_usage(void);

/* The compositing algorithm asked for: --composite-algo, else $PAPCOLL_REDUCE_ALGORITHM, else "default". */
const char *pic_config_composite_algo(const pic_config_t *cfg);

/* pic's default compositing algorithm for cfg->composite (below the
 * environment and [papcoll] reduce_algorithm; docs/results/apps.md). */
const char *pic_config_composite_default(const pic_config_t *cfg);

void pic_config_free(pic_config_t *cfg);

/* The configuration as the scaffold takes it (app_configure). */
extern const app_config_ops_t pic_config_ops;

#endif /* PIC_CONFIG_H */
