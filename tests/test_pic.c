/*
 * Serial unit test of the PIC proxy's pieces (apps/pic, docs/pic.md):
 *
 *   quiet start: every problem loads the same particles whatever P (the
 *     slabs' union is the whole set, each particle exactly once), the
 *     seeded density perturbation and the inverse normal CDF;
 *   CIC: deposition conserves charge to rounding, a uniform lattice gives
 *     a uniform density, interpolation of a linear field is exact;
 *   push: a uniform field accelerates exactly (v += q/m E dt), positions wrap;
 *   Poisson: the spectral solve of rho = cos(k x) and of a 2D mode against
 *     the analytic field, field energy, mode amplitude, guard-column folding
 *     and packing across slabs;
 *   fits: growth and damped-oscillation fits recover known rates from
 *     synthetic signals with noise;
 *   compositing operators: zbuffer is commutative and associative and keeps
 *     the nearest fragment, `over` blends in operand order (in front), is
 *     associative to rounding and is NOT commutative; the renderer's image
 *     does not depend on the order of the particles;
 *   PNG: write / read round trip.
 */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../apps/pic/field.h"
#include "../apps/pic/fit.h"
#include "../apps/pic/frame.h"
#include "../apps/pic/problem.h"
#include "../apps/pic/render.h"
#include "unit.h"

#define TWO_PI 6.283185307179586

/* ThreadSanitizer cannot see libgomp's barriers (libgomp is not
 * instrumented): under TSan the threaded push runs with one thread. */
#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif
#ifndef UNDER_TSAN
#define UNDER_TSAN 0
#endif

static void test_norm_inv(void)
{
    double p;

    for (p = 1e-12; p < 1.0; p = p < 0.5 ? p * 3.0 : 1.0 - (1.0 - p) / 3.0) {
        double x = pic_norm_inv(p), back = 0.5 * erfc(-x / sqrt(2.0));

        check(fabs(back - p) <= 1e-13 * fmax(p, 1e-3) + 1e-16, "norm_inv(%g) = %g maps back to %g", p, x, back);
        if (p > 1.0 - 1e-12)
            break;
    }
    check(fabs(pic_norm_inv(0.5)) < 1e-15, "norm_inv(0.5) = %g", pic_norm_inv(0.5));
    check(pic_radical_inverse(1, 2) == 0.5 && pic_radical_inverse(6, 2) == 0.375 &&
              fabs(pic_radical_inverse(5, 3) - 7.0 / 9.0) < 1e-15,
          "radical inverse");
}

static void test_two_stream_theory(void)
{
    double wb = sqrt(0.5), best = 0, kbest = 0, k;

    for (k = 0.01; k < 3.0; k += 0.0005) {
        double g = pic_two_stream_gamma(wb, k, 1.0);

        if (g > best) {
            best = g;
            kbest = k;
        }
    }
    check(fabs(best - wb / 2) < 1e-6, "two-stream maximum growth %g, expected w_b/2 = %g", best, wb / 2);
    check(fabs(kbest - sqrt(3.0) / 2 * wb) < 1e-3, "two-stream fastest k v0 %g, expected %g", kbest,
          sqrt(3.0) / 2 * wb);
    check(pic_two_stream_gamma(wb, 1.5, 1.0) == 0.0, "k v0 > sqrt(2) w_b must be stable");
}

/* Loads problem kind on P slabs; checks every particle appears once, in its slab. */
static void test_load(pic_problem_kind_t kind, int nx, int ny, long long n, int P)
{
    pic_problem_t pb;
    long long total = 0, idsum = 0, expect_sum;
    int r;

    pic_problem_init(&pb, kind, ny, n);
    expect_sum = pb.n_total * (pb.n_total - 1) / 2;
    for (r = 0; r < P; r++) {
        pic_grid_t g;
        pic_parts_t ps = {0};
        long i;

        pic_grid_init(&g, nx, ny, pb.lx, pb.ly, P, r);
        check(pic_problem_load(&pb, &g, &ps) == 0, "load %s rank %d", pb.info->name, r);
        for (i = 0; i < ps.n; i++) {
            const pic_particle_t *p = &ps.p[i];

            if (!check(pic_owner_of(&g, p->x) == r && p->x >= 0 && p->x < pb.lx && p->y >= 0 && p->y < pb.ly,
                       "%s P=%d: particle %llu at (%g, %g) on rank %d", pb.info->name, P,
                       (unsigned long long)p->id, p->x, p->y, r))
                break;
            idsum += (long long)p->id;
        }
        total += ps.n;
        pic_parts_free(&ps);
    }
    check(total == pb.n_total && idsum == expect_sum, "%s P=%d: %lld particles (ids sum %lld), expected %lld",
          pb.info->name, P, total, idsum, pb.n_total);
}

/* Full-grid solver + single slab (P = 1) deposit of the problem's initial state. */
static void test_deposit_and_solve(pic_problem_kind_t kind)
{
    pic_problem_t pb;
    pic_grid_t g;
    pic_parts_t ps = {0};
    pic_solver_t s;
    const pic_problem_info_t *in = &pic_problems[kind];
    double *blk, q = 0, scale = 0;
    int sp;

    pic_problem_init(&pb, kind, in->ny, in->particles / 8);
    pic_grid_init(&g, in->nx, in->ny, pb.lx, pb.ly, 1, 0);
    pic_problem_load(&pb, &g, &ps);
    blk = calloc((size_t)pic_gather_block(&g), sizeof(double));
    check(pic_solver_init(&s, in->nx, in->ny, pb.lx, pb.ly) == 0, "solver init");
    pic_deposit(&g, pb.species, ps.p, ps.n, blk);
    pic_solver_fold(&s, &g, blk);
    pic_solver_forward(&s);
    pic_solver_inverse(&s);
    for (sp = 0; sp < pb.nspecies; sp++) {
        q += pb.species[sp].n * pb.species[sp].q * pb.species[sp].w;
        scale += pb.species[sp].n * fabs(pb.species[sp].q) * pb.species[sp].w;
    }
    check(fabs(s.charge - q) <= 1e-13 * scale, "%s: grid charge %.17g, particles %.17g", in->name, s.charge, q);
    if (kind != PIC_BEAM) /* the seeded mode: |E1| = amplitude / k (density 1 + a cos kx) */
        check(fabs(s.mode1 / (pb.amplitude / pb.k1) - 1) < 0.02, "%s: initial |E1| %g, expected %g", in->name,
              s.mode1, pb.amplitude / pb.k1);
    else
        check(s.field_energy < 1e-20, "beam: neutral start has field energy %g", s.field_energy);
    pic_solver_free(&s);
    pic_parts_free(&ps);
    free(blk);
}

/* rho = A cos(kx x + ky y) on the grid: E = A k / |k|^2 sin(...), energy known. */
static void test_poisson(int nx, int ny, int mx, int my)
{
    pic_solver_t s;
    double lx = 5.0, ly = 3.0, kx = TWO_PI * mx / lx, ky = TWO_PI * my / ly, k2 = kx * kx + ky * ky, err = 0;
    int i, j;

    pic_solver_init(&s, nx, ny, lx, ly);
    for (i = 0; i < nx; i++)
        for (j = 0; j < ny; j++)
            s.rho[i * ny + j] = 0.7 + 2.0 * cos(kx * i * s.dx + ky * j * s.dy);
    pic_solver_forward(&s);
    pic_solver_inverse(&s);
    for (i = 0; i < nx; i++)
        for (j = 0; j < ny; j++) {
            double ph = sin(kx * i * s.dx + ky * j * s.dy);

            err = fmax(err, fabs(s.ex[i * ny + j] - 2.0 * kx / k2 * ph));
            err = fmax(err, fabs(s.ey[i * ny + j] - 2.0 * ky / k2 * ph));
        }
    check(err < 1e-12, "Poisson %dx%d mode (%d,%d): max field error %g", nx, ny, mx, my, err);
    check(fabs(s.field_energy - 0.5 * 4.0 / k2 * 0.5 * lx * ly) < 1e-10, "Poisson: field energy %g, expected %g",
          s.field_energy, 0.5 * 4.0 / k2 * 0.5 * lx * ly);
    if (my == 0 && mx == 1)
        check(fabs(s.mode1 - 2.0 / kx) < 1e-12, "mode amplitude %g, expected %g", s.mode1, 2.0 / kx);
    pic_solver_free(&s);
}

/* Folding P blocks with guard columns and packing them back: every node once. */
static void test_fold_pack(int nx, int ny, int P)
{
    pic_solver_t s;
    pic_grid_t g;
    long gb, sb, nodes;
    double *blocks, *packed, err = 0;
    int r, i, j;

    pic_solver_init(&s, nx, ny, 1.0, 1.0);
    pic_grid_init(&g, nx, ny, 1.0, 1.0, P, 0);
    gb = pic_gather_block(&g);
    sb = pic_scatter_block(&g);
    nodes = pic_block_nodes(&g);
    blocks = calloc((size_t)(gb * P), sizeof(double));
    packed = calloc((size_t)(sb * P), sizeof(double));
    for (r = 0; r < P; r++) /* rank r puts 1 on all its nodes, guard included */
        for (i = 0; i < nodes; i++)
            blocks[r * gb + i] = 1.0 + r;
    pic_solver_fold(&s, &g, blocks);
    for (i = 0; i < nx; i++) /* node column i gets its owner's value, plus the left slab's guard at i0 */
        for (j = 0; j < ny; j++) {
            int owner = i / g.nxl, left = (owner + P - 1) % P;
            double want = 1.0 + owner + (i % g.nxl == 0 ? 1.0 + left : 0.0);

            err = fmax(err, fabs(s.rho[i * ny + j] - want));
        }
    check(err == 0, "fold %dx%d P=%d: error %g", nx, ny, P, err);
    for (i = 0; i < nx * ny; i++) {
        s.ex[i] = i;
        s.ey[i] = -i;
    }
    pic_solver_pack(&s, &g, packed, 1.0);
    err = 0;
    for (r = 0; r < P; r++) {
        for (i = 0; i <= g.nxl; i++)
            for (j = 0; j < ny; j++) {
                int gi = (r * g.nxl + i) % nx;

                err = fmax(err, fabs(packed[r * sb + 2 * (i * ny + j)] - (gi * ny + j)));
                err = fmax(err, fabs(packed[r * sb + 2 * (i * ny + j) + 1] + (gi * ny + j)));
            }
        err = fmax(err, fabs(packed[r * sb + 2 * nodes + SX_STOP] - 1.0));
    }
    check(err == 0, "pack %dx%d P=%d: error %g", nx, ny, P, err);
    free(blocks);
    free(packed);
    pic_solver_free(&s);
}

/* CIC interpolation of a linear field is exact; a uniform field accelerates exactly. */
static void test_push(void)
{
    pic_grid_t g;
    pic_species_t sp[2] = {{"e", -1.0, 1.0, 1.0, 0}, {"i", 1.0, 25.0, 1.0, 0}};
    pic_particle_t p[64];
    double *e, ke;
    long nodes, i;
    int ix, iy;

    pic_grid_init(&g, 16, 8, 4.0, 2.0, 4, 1); /* slab of columns 4..7, x in [1, 2) */
    nodes = pic_block_nodes(&g);
    e = calloc((size_t)(2 * nodes), sizeof(double));
    for (ix = 0; ix <= g.nxl; ix++)
        for (iy = 0; iy < g.ny; iy++) {
            e[2 * (ix * g.ny + iy)] = 0.3;
            e[2 * (ix * g.ny + iy) + 1] = -0.2;
        }
    for (i = 0; i < 64; i++) {
        p[i] = (pic_particle_t){1.0 + rnd_unit() * 0.999, rnd_unit() * 2.0, rnd_unit() - 0.5, 0.1, (uint64_t)i,
                                (int32_t)(i & 1), 0};
    }
    ke = pic_push(&g, sp, e, p, 0, 64, 0.1);
    for (i = 0; i < 64; i++) {
        double a = sp[i & 1].q / sp[i & 1].m * 0.1;

        if (!check(fabs(p[i].vy - (0.1 - 0.2 * a)) < 1e-14, "push: vy %g, expected %g", p[i].vy, 0.1 - 0.2 * a))
            break;
        check(p[i].y >= 0 && p[i].y < 2.0, "push: y %g not wrapped", p[i].y);
    }
    check(ke > 0, "push: kinetic energy %g", ke);
    free(e);
}

/* The OpenMP push gives the same particles with 1 and 3 threads (the energy to rounding). */
static void test_push_threads(void)
{
    pic_problem_t pb;
    pic_grid_t g;
    pic_parts_t a = {0}, b = {0};
    double *e, ke1, ke3;
    long i, nodes;

    pic_problem_init(&pb, PIC_BEAM, 8, 20000);
    pic_grid_init(&g, 64, 8, pb.lx, pb.ly, 2, 1);
    pic_problem_load(&pb, &g, &a);
    pic_problem_load(&pb, &g, &b);
    nodes = pic_block_nodes(&g);
    e = malloc(sizeof(double) * (size_t)(2 * nodes));
    for (i = 0; i < 2 * nodes; i++)
        e[i] = sin(0.37 * i);
    omp_set_num_threads(1);
    ke1 = pic_push(&g, pb.species, e, a.p, 0, a.n, 0.1);
    omp_set_num_threads(UNDER_TSAN ? 1 : 3);
    ke3 = pic_push(&g, pb.species, e, b.p, 0, b.n / 3, 0.1) + pic_push(&g, pb.species, e, b.p, b.n / 3, b.n, 0.1);
    omp_set_num_threads(1);
    check(a.n == b.n && memcmp(a.p, b.p, sizeof *a.p * (size_t)a.n) == 0, "push with 3 threads moved differently");
    check(fabs(ke1 - ke3) <= 1e-12 * ke1, "push kinetic energy %.17g (1 thread) vs %.17g (3 threads)", ke1, ke3);
    free(e);
    pic_parts_free(&a);
    pic_parts_free(&b);
}

/* Synthetic histories with known rates and some noise. */
static void test_fits(void)
{
    enum { N = 600 };
    double t[N], a[N];
    pic_fit_t fit;
    int i, ok;

    for (i = 0; i < N; i++) { /* transient + growth at 0.3 that saturates at t = 45 */
        t[i] = 0.1 * i;
        a[i] = t[i] < 45 ? 1e-6 * (0.5 * exp(0.3 * t[i]) + 0.5 * cos(1.3 * t[i]) + 0.3 * exp(-0.3 * t[i]))
                         : 1e-6 * 0.5 * exp(0.3 * 45) * (1 - 0.01 * (t[i] - 45));
        a[i] = fabs(a[i]) * (1 + 1e-3 * (rnd_unit() - 0.5));
    }
    ok = pic_fit_growth(t, a, N, &fit);
    check(ok && fabs(fit.gamma - 0.3) < 0.003, "growth fit %g (%s), expected 0.3", fit.gamma, fit.why);
    check(!pic_fit_growth(t, a, 100, &fit), "growth fit of a run without linear phase must be refused");
    for (i = 0; i < N; i++) { /* |cos| damped at -0.15, omega 1.4, noise floor 1e-5 */
        t[i] = 0.1 * i;
        a[i] = fabs(0.02 * exp(-0.15 * t[i]) * cos(1.4 * t[i] + 0.3)) + 1e-5 * rnd_unit();
    }
    ok = pic_fit_damped(t, a, N, 1.0, 20.0, 1.0, 0.1, &fit);
    check(ok && fabs(fit.omega - 1.4) < 0.01 && fabs(fit.gamma + 0.15) < 0.005,
          "damped fit omega %g gamma %g (%s), expected 1.4, -0.15", fit.omega, fit.gamma, fit.why);
    check(!pic_fit_damped(t, a, 30, 1.0, 20.0, 1.0, 0.1, &fit), "damped fit of 3 time units must be refused");
}

static pic_zpixel_t zpix(float d, uint32_t c)
{
    pic_zpixel_t z;

    z.depth = d;
    memcpy(z.rgba, &c, 4);
    return z;
}

static pic_opixel_t opix(void)
{
    pic_opixel_t o;
    float a = (float)rnd_unit();
    int k;

    for (k = 0; k < 3; k++)
        o.rgba[k] = a * (float)rnd_unit();
    o.rgba[3] = a;
    return o;
}

static void test_operators(void)
{
    int i, k, n = 2000, bad_c = 0, bad_a = 0, noncomm = 0;
    float worst = 0;

    for (i = 0; i < n; i++) {
        /* zbuffer: depth ties are frequent here, so the colour tie-break matters. */
        pic_zpixel_t a = zpix((float)(rnd() % 4) / 4, (uint32_t)rnd()), b = zpix((float)(rnd() % 4) / 4, (uint32_t)rnd());
        pic_zpixel_t c = zpix((float)(rnd() % 4) / 4, (uint32_t)rnd()), ab = b, ba = a, l, r;
        pic_opixel_t x = opix(), y = opix(), z = opix(), xy = y, yz = z, lo, ro, yx = x;

        pic_zbuffer_combine(&a, &ab, 1); /* ab = a op b */
        pic_zbuffer_combine(&b, &ba, 1);
        bad_c += memcmp(&ab, &ba, sizeof ab) != 0;
        l = c;
        pic_zbuffer_combine(&ab, &l, 1); /* (a b) c */
        r = c;
        pic_zbuffer_combine(&b, &r, 1); /* b c */
        pic_zbuffer_combine(&a, &r, 1); /* a (b c) */
        bad_a += memcmp(&l, &r, sizeof l) != 0;
        check(ab.depth == fminf(a.depth, b.depth), "zbuffer keeps the nearest depth");
        /* over: x in front of y; associativity to rounding; order matters. */
        pic_over_combine(&x, &xy, 1);
        for (k = 0; k < 4; k++)
            check(fabsf(xy.rgba[k] - (x.rgba[k] + (1 - x.rgba[3]) * y.rgba[k])) < 1e-6f, "over operand order");
        lo = z;
        pic_over_combine(&xy, &lo, 1); /* (x y) z */
        pic_over_combine(&y, &yz, 1);
        ro = yz;
        pic_over_combine(&x, &ro, 1); /* x (y z) */
        for (k = 0; k < 4; k++)
            worst = fmaxf(worst, fabsf(lo.rgba[k] - ro.rgba[k]));
        pic_over_combine(&y, &yx, 1);
        noncomm += fabsf(yx.rgba[0] - xy.rgba[0]) > 1e-3f;
    }
    check(bad_c == 0 && bad_a == 0, "zbuffer: %d non-commutative, %d non-associative of %d", bad_c, bad_a, n);
    check(worst < 1e-6f, "over: associativity error %g", worst);
    check(noncomm > n / 4, "over must not be commutative (%d of %d differ)", noncomm, n);
}

/* The local image of both modes does not depend on the particles' order. */
static void test_render_order(pic_composite_mode_t mode)
{
    enum { N = 3000, W = 64, H = 48 };
    pic_particle_t p[N], q[N];
    pic_renderer_t r;
    size_t bytes = pic_pixel_size(mode) * W * H;
    void *img1 = malloc(bytes);
    int i, covered = 0;

    for (i = 0; i < N; i++) /* clusters, so that splats overlap */
        p[i] = (pic_particle_t){4.0 * (double)(rnd() % 40) / 40.0, 1.0 * rnd_unit(), (double)(rnd() % 7) / 3.0 - 1.0,
                                0.0, (uint64_t)i, 0, 0};
    memcpy(q, p, sizeof p);
    for (i = N - 1; i > 0; i--) { /* shuffle */
        int j = (int)(rnd() % (uint64_t)(i + 1));
        pic_particle_t t = q[i];

        q[i] = q[j];
        q[j] = t;
    }
    pic_renderer_init(&r, mode, W, H, 4.0, 1.0, -1.5, 1.5);
    pic_render_begin(&r);
    pic_render_add(&r, p, N);
    pic_render_end(&r);
    memcpy(img1, r.image, bytes);
    pic_render_begin(&r);
    pic_render_add(&r, q, N / 3);
    pic_render_add(&r, q + N / 3, N - N / 3);
    pic_render_end(&r);
    check(memcmp(img1, r.image, bytes) == 0, "%s image depends on the particle order",
          mode == PIC_COMPOSITE_ZBUFFER ? "zbuffer" : "over");
    for (i = 0; i < W * H; i++)
        covered += mode == PIC_COMPOSITE_ZBUFFER ? ((pic_zpixel_t *)img1)[i].depth < 1.0f
                                                 : ((pic_opixel_t *)img1)[i].rgba[3] > 0.0f;
    check(covered > W * H / 20, "only %d pixels covered", covered);
    pic_renderer_free(&r);
    free(img1);
}

/* Along a ray depth grows with x: the slab order is the depth order. */
static void test_camera(void)
{
    pic_camera_t c;
    int px, py, i;
    float d0, d1;

    pic_camera_init(&c, 256, 256, 10.0, 2.0, -1.0, 1.0);
    check(c.dir[0] > 0, "camera direction must have a positive x component");
    for (i = 0; i < 100; i++) {
        double x = 9.0 * rnd_unit(), y = 2.0 * rnd_unit(), v = rnd_unit() - 0.5, t = 0.05;

        pic_camera_project(&c, x, y, v, &px, &py, &d0);
        pic_camera_project(&c, x + t * c.dir[0] * 10.0, y + t * c.dir[2] * 2.0, v + t * c.dir[1] * 2.0, &px, &py, &d1);
        if (!check(d1 > d0, "depth must grow along the ray (%g -> %g)", d0, d1))
            break;
    }
}

static void test_png(void)
{
    enum { W = 37, H = 21 };
    uint8_t img[W * H * 3], *back = NULL;
    char path[] = "/tmp/test_pic_XXXXXX", err[256];
    int fd = mkstemp(path), w, h, i;

    for (i = 0; i < W * H * 3; i++)
        img[i] = (uint8_t)rnd();
    if (fd >= 0)
        close(fd);
    check(pic_png_write(path, W, H, img, err, sizeof err) == 0, "png write: %s", err);
    check(pic_png_read(path, &w, &h, &back, err, sizeof err) == 0 && w == W && h == H &&
              memcmp(img, back, sizeof img) == 0,
          "png round trip");
    check(pic_png_write("/nonexistent/dir/x.png", W, H, img, err, sizeof err) != 0 && strstr(err, "cannot write"),
          "png write to a missing directory must fail with a message");
    free(back);
    unlink(path);
}

int main(void)
{
    int P;

    unit_name = "test_pic";
    omp_set_num_threads(1); /* test_push_threads alone uses more */
    test_norm_inv();
    test_two_stream_theory();
    for (P = 1; P <= 8; P++) { /* nx a multiple of P, as the configuration demands */
        test_load(PIC_TWO_STREAM, 16 * P, 4, 4000, P);
        test_load(PIC_LANDAU, 16 * P, 4, 5000, P);
        test_load(PIC_BEAM, 24 * P, 16, 6000, P);
    }
    test_load(PIC_BEAM, 105, 4, 999, 7);
    test_deposit_and_solve(PIC_TWO_STREAM);
    test_deposit_and_solve(PIC_LANDAU);
    test_deposit_and_solve(PIC_BEAM);
    test_poisson(64, 8, 1, 0);
    test_poisson(32, 16, 3, 2);
    test_poisson(15, 9, 2, 1);
    test_fold_pack(12, 3, 1);
    test_fold_pack(12, 3, 4);
    test_fold_pack(35, 4, 7);
    test_push();
    test_push_threads();
    test_fits();
    test_operators();
    test_render_order(PIC_COMPOSITE_ZBUFFER);
    test_render_order(PIC_COMPOSITE_OVER);
    test_camera();
    test_png();
    return unit_summary();
}
