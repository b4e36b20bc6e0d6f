/*
 * The test problems and their quiet starts (see problem.h, docs/pic.md).
 *
 * Quiet start: positions on a lattice (or the inverse CDF of the density),
 * velocities from the inverse CDF of a Maxwellian at bit-reversed
 * (van der Corput) points, as in Birdsall & Langdon, Sect. 16-6.  The
 * seeded density perturbation 1 + a cos(k x) is loaded exactly by inverting
 * its cumulative distribution, so the initial noise sits far below it.
 */
#include "problem.h"

#include <math.h>
#include <string.h>

#define TWO_PI 6.283185307179586

/* Beam problem: a neutral plasma cloud (density bump) drifting through a background plasma. */
#define BEAM_AMPLITUDE 4.0 /* peak cloud density over the background's */
#define BEAM_SIGMA 4.0     /* Gaussian width of the cloud (Debye lengths) */
#define BEAM_X0 0.25       /* initial centre, fraction of the box */
#define BEAM_DRIFT 1.0     /* drift of the cloud (electron thermal speeds) */
#define ION_MASS 25.0      /* ion / electron mass ratio (fast ions keep runs short) */
#define ION_VTH 0.02       /* ion thermal speed */
#define LANDAU_ALPHA 0.01  /* seeded density perturbation, Landau damping */
#define TWO_STREAM_EPS 1e-6 /* seeded density perturbation, two-stream */

/* Landau damping of the Langmuir wave at k lambda_D = 0.5: the exact roots. */
#define LANDAU_OMEGA 1.4157
#define LANDAU_GAMMA (-0.1534)

const pic_problem_info_t pic_problems[PIC_NPROBLEMS] = {
    [PIC_TWO_STREAM] = {"two-stream", "two cold symmetric beams, fastest-growing mode (k v0 = sqrt(3)/2 w_b)",
                        TWO_PI, TWO_PI / 16.0, 64, 4, 16384, 500, 0.1, 10, 0.01, -1.6, 1.6},
    [PIC_LANDAU] = {"landau", "Langmuir wave at k lambda_D = 0.5 in a Maxwellian plasma (Landau damping)",
                    2.0 * TWO_PI, 2.0 * TWO_PI / 16.0, 64, 4, 131072, 200, 0.1, 10, 0.001, -4.0, 4.0},
    [PIC_BEAM] = {"beam", "neutral plasma cloud drifting through a background plasma (moving imbalance)", 64.0,
                  8.0, 128, 16, 400000, 600, 0.1, 10, 0.002, -4.0, 5.0},
};

int pic_problem_find(const char *name)
{
    int i;

    for (i = 0; i < PIC_NPROBLEMS; i++)
        if (strcmp(name, pic_problems[i].name) == 0)
            return i;
    return -1;
}

double pic_two_stream_gamma(double wb, double k, double v0)
{
    double kv2 = k * k * v0 * v0, g2 = wb * sqrt(wb * wb + 4.0 * kv2) - kv2 - wb * wb;

    return g2 > 0.0 ? sqrt(g2) : 0.0;
}

double pic_radical_inverse(uint64_t i, unsigned b)
{
    double f = 1.0 / b, r = 0.0;

    while (i > 0) {
        r += f * (double)(i % b);
        i /= b;
        f /= b;
    }
    return r;
}

double pic_norm_inv(double p)
{
    /* Acklam's rational approximation, then one Halley step on erfc. */
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                               1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                               6.680131188771972e+01, -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                               -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    double q, r, x, e, u;

    if (p < 0.02425) {
        q = sqrt(-2.0 * log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    } else if (p > 1.0 - 0.02425) {
        q = sqrt(-2.0 * log(1.0 - p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    } else {
        q = p - 0.5;
        r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
    }
    e = 0.5 * erfc(-x / sqrt(2.0)) - p;
    u = e * sqrt(TWO_PI) * exp(x * x / 2.0);
    return x - u / (1.0 + x * u / 2.0);
}

/* x in [0, lx) with x + amp/k sin(k x) = X: the inverse CDF of density 1 + amp cos(k x). */
static double perturbed(double X, double amp, double k)
{
    double x = X;
    int it;

    for (it = 0; it < 30 && amp != 0.0; it++) {
        double f = x + amp / k * sin(k * x) - X, dx = f / (1.0 + amp * cos(k * x));

        x -= dx;
        if (fabs(dx) < 1e-15 * (1.0 + fabs(x)))
            break;
    }
    return x;
}

static void set_species(pic_species_t *s, const char *name, double q, double m, double w, long long n)
{
    memset(s, 0, sizeof *s);
    strncpy(s->name, name, sizeof s->name - 1);
    s->q = q;
    s->m = m;
    s->w = w;
    s->n = n;
}

void pic_problem_init(pic_problem_t *pb, pic_problem_kind_t kind, int ny, long long n_request)
{
    const pic_problem_info_t *in = &pic_problems[kind];
    long long n = n_request;

    memset(pb, 0, sizeof *pb);
    pb->kind = kind;
    pb->info = in;
    pb->lx = in->lx;
    pb->ly = in->ly_cells;
    pb->k1 = TWO_PI / pb->lx;
    if (kind == PIC_TWO_STREAM) {
        n -= n % (2LL * ny); /* two beams on a lattice of ny rows */
        if (n < 2LL * ny)
            n = 2LL * ny;
        pb->omega_b = sqrt(0.5); /* each beam carries half the density */
        pb->v0 = sqrt(3.0) / 2.0 * pb->omega_b / pb->k1;
        pb->amplitude = TWO_STREAM_EPS;
        pb->nspecies = 1;
        set_species(&pb->species[0], "electrons", -1.0, 1.0, pb->lx * pb->ly / (double)n, n);
        pb->theory = (pic_theory_t){1, pic_two_stream_gamma(pb->omega_b, pb->k1, pb->v0), 0.0, 0.10, 0.0};
    } else if (kind == PIC_LANDAU) {
        pb->amplitude = LANDAU_ALPHA;
        pb->nspecies = 1;
        set_species(&pb->species[0], "electrons", -1.0, 1.0, pb->lx * pb->ly / (double)n, n);
        pb->theory = (pic_theory_t){2, LANDAU_GAMMA, LANDAU_OMEGA, 0.10, 0.02};
    } else {
        double cloud = BEAM_AMPLITUDE * BEAM_SIGMA * sqrt(TWO_PI); /* cloud's integral over x */

        n -= n % 2;
        pb->v0 = BEAM_DRIFT;
        pb->nspecies = 2;
        set_species(&pb->species[0], "electrons", -1.0, 1.0, (pb->lx + cloud) * pb->ly / (double)(n / 2), n / 2);
        set_species(&pb->species[1], "ions", 1.0, ION_MASS, (pb->lx + cloud) * pb->ly / (double)(n / 2), n / 2);
    }
    pb->n_total = n;
}

/* Keeps p when its x falls in this rank's slab. */
static int keep(const pic_grid_t *g, pic_parts_t *ps, const pic_particle_t *p)
{
    if (pic_owner_of(g, p->x) != g->rank)
        return 0;
    return pic_parts_push(ps, p);
}

static int load_two_stream(const pic_problem_t *pb, const pic_grid_t *g, pic_parts_t *ps)
{
    long long nb = pb->n_total / 2, npx = nb / g->ny, i;
    int beam, j;

    for (beam = 0; beam < 2; beam++)
        for (j = 0; j < g->ny; j++)
            for (i = 0; i < npx; i++) {
                pic_particle_t p = {0};

                p.x = pic_wrap(perturbed(pb->lx * ((double)i + 0.5) / (double)npx, pb->amplitude, pb->k1), pb->lx);
                p.y = (j + 0.5) * g->dy;
                p.vx = beam == 0 ? pb->v0 : -pb->v0;
                p.id = (uint64_t)(beam * nb + j * npx + i);
                if (keep(g, ps, &p) != 0)
                    return -1;
            }
    return 0;
}

static int load_landau(const pic_problem_t *pb, const pic_grid_t *g, pic_parts_t *ps)
{
    long long n = pb->n_total, i;

    for (i = 0; i < n; i++) {
        pic_particle_t p = {0};

        p.x = pic_wrap(perturbed(pb->lx * ((double)i + 0.5) / (double)n, pb->amplitude, pb->k1), pb->lx);
        p.y = ((double)(i % g->ny) + 0.5) * g->dy;
        p.vx = pic_norm_inv(pic_radical_inverse((uint64_t)i + 1, 2));
        p.vy = pic_norm_inv(pic_radical_inverse((uint64_t)i + 1, 3));
        p.id = (uint64_t)i;
        if (keep(g, ps, &p) != 0)
            return -1;
    }
    return 0;
}

/* Electron j and ion j start at the same place: the plasma is exactly neutral at t = 0. */
static int load_beam(const pic_problem_t *pb, const pic_grid_t *g, pic_parts_t *ps)
{
    double cloud = BEAM_AMPLITUDE * BEAM_SIGMA * sqrt(TWO_PI);
    long long ns = pb->n_total / 2, nc = (long long)((double)ns * cloud / (pb->lx + cloud)), nbg = ns - nc, j;
    int s;

    for (j = 0; j < ns; j++) {
        int in_cloud = j >= nbg;
        long long jj = in_cloud ? j - nbg : j;
        double x = in_cloud ? BEAM_X0 * pb->lx + BEAM_SIGMA * pic_norm_inv(((double)jj + 0.5) / (double)nc)
                            : pb->lx * ((double)jj + 0.5) / (double)nbg;

        for (s = 0; s < 2; s++) {
            double vth = s == 0 ? 1.0 : ION_VTH;
            pic_particle_t p = {0};

            p.x = pic_wrap(x, pb->lx);
            p.y = ((double)(jj % g->ny) + 0.5) * g->dy;
            p.vx = vth * pic_norm_inv(pic_radical_inverse((uint64_t)j + 1, s == 0 ? 2 : 5)) +
                   (in_cloud ? pb->v0 : 0.0);
            p.vy = vth * pic_norm_inv(pic_radical_inverse((uint64_t)j + 1, s == 0 ? 3 : 7));
            p.sp = s;
            p.id = (uint64_t)(s * ns + j);
            if (keep(g, ps, &p) != 0)
                return -1;
        }
    }
    return 0;
}

int pic_problem_load(const pic_problem_t *pb, const pic_grid_t *g, pic_parts_t *parts)
{
    parts->n = 0;
    switch (pb->kind) {
    case PIC_TWO_STREAM:
        return load_two_stream(pb, g, parts);
    case PIC_LANDAU:
        return load_landau(pb, g, parts);
    default:
        return load_beam(pb, g, parts);
    }
}
