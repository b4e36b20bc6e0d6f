/*
 * Particles: CIC deposition, leapfrog push, migration (see particles.h).
 */
#include "particles.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_COUNT = 11, TAG_PARTS = 12 };

void pic_grid_init(pic_grid_t *g, int nx, int ny, double lx, double ly, int nprocs, int rank)
{
    memset(g, 0, sizeof *g);
    g->nx = nx;
    g->ny = ny;
    g->lx = lx;
    g->ly = ly;
    g->dx = lx / nx;
    g->dy = ly / ny;
    g->inv_dx = nx / lx;
    g->inv_dy = ny / ly;
    g->nprocs = nprocs;
    g->rank = rank;
    g->nxl = nx / nprocs;
    g->i0 = rank * g->nxl;
}

int pic_parts_reserve(pic_parts_t *ps, long n)
{
    pic_particle_t *p;
    long cap;

    if (n <= ps->cap)
        return 0;
    cap = ps->cap > 0 ? ps->cap : 1024;
    while (cap < n)
        cap += cap / 2;
    p = realloc(ps->p, (size_t)cap * sizeof *p);
    if (p == NULL)
        return -1;
    ps->p = p;
    ps->cap = cap;
    return 0;
}

int pic_parts_push(pic_parts_t *ps, const pic_particle_t *p)
{
    if (pic_parts_reserve(ps, ps->n + 1) != 0)
        return -1;
    ps->p[ps->n++] = *p;
    return 0;
}

void pic_parts_free(pic_parts_t *ps)
{
    free(ps->p);
    memset(ps, 0, sizeof *ps);
}

/* Bilinear weights of a particle: local column ix in [0, nxl - 1], row iy, next row iy1. */
typedef struct {
    long n00, n01, n10, n11; /* node indices into a (nxl + 1) x ny array */
    double w00, w01, w10, w11;
} cic_t;

static inline void cic_weights(const pic_grid_t *g, double x, double y, cic_t *c)
{
    int cx = pic_cell_of(g, x), ix = cx - g->i0;
    int iy = (int)(y * g->inv_dy), iy1;
    double fx = x * g->inv_dx - cx, fy;

    if (iy >= g->ny)
        iy = g->ny - 1;
    fy = y * g->inv_dy - iy;
    fx = fx < 0.0 ? 0.0 : fx > 1.0 ? 1.0 : fx;
    fy = fy < 0.0 ? 0.0 : fy > 1.0 ? 1.0 : fy;
    iy1 = iy + 1 == g->ny ? 0 : iy + 1;
    c->n00 = (long)ix * g->ny + iy;
    c->n01 = (long)ix * g->ny + iy1;
    c->n10 = (long)(ix + 1) * g->ny + iy;
    c->n11 = (long)(ix + 1) * g->ny + iy1;
    c->w00 = (1.0 - fx) * (1.0 - fy);
    c->w01 = (1.0 - fx) * fy;
    c->w10 = fx * (1.0 - fy);
    c->w11 = fx * fy;
}

void pic_deposit(const pic_grid_t *g, const pic_species_t *sp, const pic_particle_t *p, long n, double *rho)
{
    double inv_area = 1.0 / (g->dx * g->dy);
    long i;

    memset(rho, 0, sizeof(double) * (size_t)pic_block_nodes(g));
    for (i = 0; i < n; i++) {
        const pic_species_t *s = &sp[p[i].sp];
        double q = s->q * s->w * inv_area;
        cic_t c;

        cic_weights(g, p[i].x, p[i].y, &c);
        rho[c.n00] += q * c.w00;
        rho[c.n01] += q * c.w01;
        rho[c.n10] += q * c.w10;
        rho[c.n11] += q * c.w11;
    }
}

static inline void interp(const cic_t *c, const double *e, double *ex, double *ey)
{
    *ex = c->w00 * e[2 * c->n00] + c->w01 * e[2 * c->n01] + c->w10 * e[2 * c->n10] + c->w11 * e[2 * c->n11];
    *ey = c->w00 * e[2 * c->n00 + 1] + c->w01 * e[2 * c->n01 + 1] + c->w10 * e[2 * c->n10 + 1] +
          c->w11 * e[2 * c->n11 + 1];
}

double pic_push(const pic_grid_t *g, const pic_species_t *sp, const double *e, pic_particle_t *p, long from,
                long to, double dt)
{
    double ke = 0.0;
    long i;

#pragma omp parallel for schedule(static) reduction(+ : ke)
    for (i = from; i < to; i++) {
        const pic_species_t *s = &sp[p[i].sp];
        double a = s->q / s->m * dt, ex, ey, vx, vy;
        cic_t c;

        cic_weights(g, p[i].x, p[i].y, &c);
        interp(&c, e, &ex, &ey);
        vx = p[i].vx + a * ex;
        vy = p[i].vy + a * ey;
        ke += 0.25 * s->m * s->w * (p[i].vx * p[i].vx + p[i].vy * p[i].vy + vx * vx + vy * vy);
        p[i].vx = vx;
        p[i].vy = vy;
        p[i].x = pic_wrap(p[i].x + vx * dt, g->lx);
        p[i].y = pic_wrap(p[i].y + vy * dt, g->ly);
    }
    return ke;
}

void pic_push_back_half(const pic_grid_t *g, const pic_species_t *sp, const double *e, pic_particle_t *p, long n,
                        double dt)
{
    long i;

    for (i = 0; i < n; i++) {
        const pic_species_t *s = &sp[p[i].sp];
        double a = -0.5 * s->q / s->m * dt, ex, ey;
        cic_t c;

        cic_weights(g, p[i].x, p[i].y, &c);
        interp(&c, e, &ex, &ey);
        p[i].vx += a * ex;
        p[i].vy += a * ey;
    }
}

/* Splits ps into kept particles (front) and those for the left / right
 * neighbour; particles owned by any other rank are removed and counted. */
static int sort_out(const pic_grid_t *g, pic_parts_t *ps, pic_parts_t *left, pic_parts_t *right, long *far)
{
    int P = g->nprocs, me = g->rank, lrank = (me + P - 1) % P, rrank = (me + 1) % P;
    long i, k = 0;

    for (i = 0; i < ps->n; i++) {
        int o = pic_owner_of(g, ps->p[i].x);

        if (o == me)
            ps->p[k++] = ps->p[i];
        else if (o == rrank) {
            if (pic_parts_push(right, &ps->p[i]) != 0)
                return -2;
        } else if (o == lrank) {
            if (pic_parts_push(left, &ps->p[i]) != 0)
                return -2;
        } else {
            (*far)++;
        }
    }
    ps->n = k;
    return 0;
}

/* Sends out to dest and appends what src sends to ps (a count, then the particles). */
static int exchange(pic_parts_t *ps, const pic_parts_t *out, int dest, int src, MPI_Comm comm)
{
    long nin = 0, nout = out->n;
    int bytes = (int)sizeof(pic_particle_t), ok;

    MPI_Sendrecv(&nout, 1, MPI_LONG, dest, TAG_COUNT, &nin, 1, MPI_LONG, src, TAG_COUNT, comm, MPI_STATUS_IGNORE);
    /* A receive must match the send whatever happens: on no memory, receive into nothing and fail. */
    ok = pic_parts_reserve(ps, ps->n + nin) == 0;
    if (!ok) {
        MPI_Recv(NULL, 0, MPI_BYTE, src, TAG_PARTS, comm, MPI_STATUS_IGNORE);
        MPI_Send(out->p, (int)nout * bytes, MPI_BYTE, dest, TAG_PARTS, comm);
        return -2;
    }
    MPI_Sendrecv(out->p, (int)nout * bytes, MPI_BYTE, dest, TAG_PARTS, ps->p + ps->n, (int)nin * bytes, MPI_BYTE,
                 src, TAG_PARTS, comm, MPI_STATUS_IGNORE);
    ps->n += nin;
    return 0;
}

int pic_migrate(const pic_grid_t *g, pic_parts_t *ps, MPI_Comm comm, long *sent, long *far)
{
    pic_parts_t left = {0}, right = {0};
    int P = g->nprocs, me = g->rank, rc = 0, rc2;

    *sent = 0;
    *far = 0;
    if (P == 1)
        return 0;
    /* Only neighbours talk: no global synchronisation per step.  A failure
     * here still completes both exchanges, so no neighbour is left waiting. */
    rc = sort_out(g, ps, &left, &right, far);
    *sent = left.n + right.n;
    rc2 = exchange(ps, &right, (me + 1) % P, (me + P - 1) % P, comm);
    if (P > 2) {
        int rc3 = exchange(ps, &left, (me + P - 1) % P, (me + 1) % P, comm);

        rc2 = rc2 != 0 ? rc2 : rc3;
    }
    pic_parts_free(&left);
    pic_parts_free(&right);
    return rc != 0 ? rc : rc2;
}
