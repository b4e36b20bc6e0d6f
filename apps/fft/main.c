/*
 * fft: the parallel FFT proxy application of Proficz 2020 (Sect. 6, Table 5).
 *
 * Master-slave radix-2 decimation-in-frequency FFT: every iteration rank 0
 * generates a new random signal, runs the first log2(P) DIF stages and sends
 * each rank its independent sub-sequence; every rank transforms its block
 * (own OpenMP kernel or FFTW) between the PAT monitor's processing start,
 * edge and end; the blocks return through one papcoll gather call site and
 * rank 0 restores natural order.  Validated against FFTW.
 *
 * Usage and output formats: fft --help, docs/fft.md.
 */
#include <string.h>

#include "fft.h"

int main(int argc, char **argv)
{
    app_t app;
    fft_config_t cfg;
    fft_t f;
    int status;

    memset(&f, 0, sizeof f);

    /* Prolog: MPI, configuration agreed by all ranks, buffers and plans, papcoll site, trace. */
    app_start(&app, "fft", &argc, &argv);
    status = app_configure(&app, &fft_config_ops, &cfg);
    if (status == APP_OK)
        status = fft_setup(&f, &app, &cfg);
    if (status == APP_OK)
        fft_report_config(&f);

    /* Loop: distribute, transform, gather, reorder; validate every K iterations. */
    if (status == APP_OK)
        status = fft_run(&f);

    /* Epilog: results, files, the validation line; then the site, trace and
     * context (app_close), the buffers, MPI, in reverse order of creation. */
    if (status == APP_OK || f.done > 0)
        status = fft_report(&f, status);
    status = app_worst(status, app_close(&app));
    fft_free(&f);
    fft_config_free(&cfg);
    return app_finish(&app, status);
}
