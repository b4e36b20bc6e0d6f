/*
 * Spectral Poisson solve on the root (see field.h).
 */
#include "field.h"

#include <math.h>
#include <string.h>

#define TWO_PI 6.283185307179586

long pic_gather_block(const pic_grid_t *g)
{
    return pic_block_nodes(g) + GX_FIELDS;
}

long pic_scatter_block(const pic_grid_t *g)
{
    return 2 * pic_block_nodes(g) + SX_FIELDS;
}

int pic_solver_init(pic_solver_t *s, int nx, int ny, double lx, double ly)
{
    size_t n = (size_t)nx * (size_t)ny, nk = (size_t)nx * (size_t)(ny / 2 + 1);

    memset(s, 0, sizeof *s);
    s->nx = nx;
    s->ny = ny;
    s->lx = lx;
    s->ly = ly;
    s->dx = lx / nx;
    s->dy = ly / ny;
    s->rho = fftw_alloc_real(n);
    s->ex = fftw_alloc_real(n);
    s->ey = fftw_alloc_real(n);
    s->rk = fftw_alloc_complex(nk);
    s->exk = fftw_alloc_complex(nk);
    s->eyk = fftw_alloc_complex(nk);
    if (!s->rho || !s->ex || !s->ey || !s->rk || !s->exk || !s->eyk)
        return -1;
    /* Planning overwrites the arrays; they are filled before every use. */
    s->fwd = fftw_plan_dft_r2c_2d(nx, ny, s->rho, s->rk, FFTW_MEASURE);
    s->inv_x = fftw_plan_dft_c2r_2d(nx, ny, s->exk, s->ex, FFTW_MEASURE);
    s->inv_y = fftw_plan_dft_c2r_2d(nx, ny, s->eyk, s->ey, FFTW_MEASURE);
    return s->fwd && s->inv_x && s->inv_y ? 0 : -1;
}

void pic_solver_free(pic_solver_t *s)
{
    if (s->fwd)
        fftw_destroy_plan(s->fwd);
    if (s->inv_x)
        fftw_destroy_plan(s->inv_x);
    if (s->inv_y)
        fftw_destroy_plan(s->inv_y);
    fftw_free(s->rho);
    fftw_free(s->ex);
    fftw_free(s->ey);
    fftw_free(s->rk);
    fftw_free(s->exk);
    fftw_free(s->eyk);
    memset(s, 0, sizeof *s);
}

void pic_solver_fold(pic_solver_t *s, const pic_grid_t *g, const double *blocks)
{
    long nb = pic_gather_block(g), cols = g->nxl + 1;
    int r, i, j;

    memset(s->rho, 0, sizeof(double) * (size_t)s->nx * (size_t)s->ny);
    for (r = 0; r < g->nprocs; r++) {
        const double *b = blocks + r * nb;

        for (i = 0; i < cols; i++) {
            double *dst = s->rho + (size_t)((r * g->nxl + i) % s->nx) * (size_t)s->ny;

            for (j = 0; j < s->ny; j++)
                dst[j] += b[i * s->ny + j];
        }
    }
}

/* Wave number of index i of n points over length l, signed; 0 at Nyquist when deriv. */
static double wavenumber(int i, int n, double l, int deriv)
{
    if (deriv && 2 * i == n)
        return 0.0;
    return TWO_PI / l * (2 * i <= n ? i : i - n);
}

void pic_solver_forward(pic_solver_t *s)
{
    int nyk = s->ny / 2 + 1, i, j;
    double q = 0.0;

    for (i = 0; i < s->nx * s->ny; i++)
        q += s->rho[i];
    s->charge = q * s->dx * s->dy;
    fftw_execute(s->fwd);
    for (i = 0; i < s->nx; i++)
        for (j = 0; j < nyk; j++) {
            double kx = wavenumber(i, s->nx, s->lx, 0), ky = wavenumber(j, s->ny, s->ly, 0);
            double k2 = kx * kx + ky * ky, dkx = wavenumber(i, s->nx, s->lx, 1);
            double dky = wavenumber(j, s->ny, s->ly, 1);
            long m = (long)i * nyk + j;
            double re = s->rk[m][0], im = s->rk[m][1], f = k2 > 0.0 ? 1.0 / k2 : 0.0;

            /* E_k = -i k rho_k / k^2: (re + i im) * (-i) = im - i re. */
            s->exk[m][0] = dkx * f * im;
            s->exk[m][1] = -dkx * f * re;
            s->eyk[m][0] = dky * f * im;
            s->eyk[m][1] = -dky * f * re;
        }
    /* |Ex| at k = (k1, 0): the unnormalised coefficient times 2 / (nx ny). */
    s->mode1 = s->nx > 2 ? 2.0 * hypot(s->exk[nyk][0], s->exk[nyk][1]) / ((double)s->nx * s->ny) : 0.0;
}

void pic_solver_inverse(pic_solver_t *s)
{
    double norm = 1.0 / ((double)s->nx * s->ny), w = 0.0;
    int i;

    fftw_execute(s->inv_x);
    fftw_execute(s->inv_y);
    for (i = 0; i < s->nx * s->ny; i++) {
        s->ex[i] *= norm;
        s->ey[i] *= norm;
        w += s->ex[i] * s->ex[i] + s->ey[i] * s->ey[i];
    }
    s->field_energy = 0.5 * w * s->dx * s->dy;
}

void pic_solver_scale(pic_solver_t *s, double a)
{
    int i;

    for (i = 0; i < s->nx * s->ny; i++) {
        s->ex[i] *= a;
        s->ey[i] *= a;
    }
    s->field_energy *= a * a;
    s->mode1 *= a;
}

void pic_solver_pack(const pic_solver_t *s, const pic_grid_t *g, double *blocks, double stop)
{
    long nb = pic_scatter_block(g), cols = g->nxl + 1;
    int r, i, j;

    for (r = 0; r < g->nprocs; r++) {
        double *b = blocks + r * nb;

        for (i = 0; i < cols; i++) {
            size_t src = (size_t)((r * g->nxl + i) % s->nx) * (size_t)s->ny;

            for (j = 0; j < s->ny; j++) {
                b[2 * (i * s->ny + j)] = s->ex[src + (size_t)j];
                b[2 * (i * s->ny + j) + 1] = s->ey[src + (size_t)j];
            }
        }
        b[2 * cols * s->ny + SX_STOP] = stop;
    }
}
