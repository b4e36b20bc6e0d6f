/*
 * Files of per-rank delays: the recorded or designed process arrival
 * patterns that papbench replays (--pattern replay:FILE) and the FFT proxy
 * injects (--noise trace:FILE), and that paptrace pat writes.
 *
 * Format: one line per iteration with exactly P whitespace-separated
 * numbers of seconds in [0, PATFILE_MAX_S], the delay of each rank; blank lines and
 * lines starting with '#' are skipped.  Pure (no MPI, no printing): every
 * rank reads the file, and the program agrees on who reports an error.
 */
#ifndef APPS_PATFILE_H
#define APPS_PATFILE_H

#include <stddef.h>
#include <stdint.h>

/* The longest delay a file may give: one hour. */
#define PATFILE_MAX_S 3600.0

typedef struct {
    int nprocs;
    long nrows;    /* data lines */
    double *rows;  /* nrows x nprocs delays (s) */
    uint64_t hash; /* digest of the delays, for the configuration text */
} patfile_t;

/*
 * Reads path for nprocs ranks.  what names the file in errors ("replay
 * file", "trace file"): one line in err, naming the file and line, e.g.
 * "replay file 'p.txt' line 3: 2 delays, expected 4 (one per rank)".
 * Returns 0, or -1 (then *pf needs no patfile_free).
 */
int patfile_read(const char *path, const char *what, int nprocs, patfile_t *pf, char *err, size_t errlen);

/* The delays of iteration iter (>= 0): row iter mod nrows. */
const double *patfile_row(const patfile_t *pf, long iter);

void patfile_free(patfile_t *pf);

#endif /* APPS_PATFILE_H */
