/*
 * Point-splat renderer and the compositing operators (see render.h).
 */
#include "render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The viewing direction in the unit box (x, vx, y): mostly along y (depth
 * through the box's height) with enough x to order the slabs and a little
 * from above. */
static const double VIEW_DIR[3] = {0.45, -0.30, 1.0};
static const uint8_t BACKGROUND[3] = {16, 18, 28};

static void normalize(double *v)
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);

    v[0] /= n;
    v[1] /= n;
    v[2] /= n;
}

static double dot(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

void pic_camera_init(pic_camera_t *c, int w, int h, double lx, double ly, double vmin, double vmax)
{
    static const double up_world[3] = {0, 1, 0};
    double sx0 = INFINITY, sx1 = -INFINITY, sy0 = INFINITY, sy1 = -INFINITY;
    int k;

    memset(c, 0, sizeof *c);
    c->w = w;
    c->h = h;
    c->lx = lx;
    c->ly = ly;
    c->vmin = vmin;
    c->vmax = vmax;
    memcpy(c->dir, VIEW_DIR, sizeof c->dir);
    normalize(c->dir);
    cross(up_world, c->dir, c->right);
    normalize(c->right);
    cross(c->dir, c->right, c->up);
    c->dmin = INFINITY;
    c->dmax = -INFINITY;
    for (k = 0; k < 8; k++) { /* the corners of the unit box */
        double p[3] = {k & 1, (k >> 1) & 1, (k >> 2) & 1}, d = dot(p, c->dir);

        sx0 = fmin(sx0, dot(p, c->right));
        sx1 = fmax(sx1, dot(p, c->right));
        sy0 = fmin(sy0, dot(p, c->up));
        sy1 = fmax(sy1, dot(p, c->up));
        c->dmin = fmin(c->dmin, d);
        c->dmax = fmax(c->dmax, d);
    }
    c->scale = 0.94 * fmin(w / (sx1 - sx0), h / (sy1 - sy0));
    c->ox = 0.5 * (w - c->scale * (sx0 + sx1));
    c->oy = 0.5 * (h + c->scale * (sy0 + sy1)); /* image rows grow downwards */
}

int pic_camera_project(const pic_camera_t *c, double x, double y, double vx, int *px, int *py, float *depth)
{
    double v = (vx - c->vmin) / (c->vmax - c->vmin), p[3];
    double sx, sy, d;

    if (!(v >= 0.0 && v <= 1.0))
        return 0;
    p[0] = x / c->lx;
    p[1] = v;
    p[2] = y / c->ly;
    sx = c->ox + c->scale * dot(p, c->right);
    sy = c->oy - c->scale * dot(p, c->up);
    d = (dot(p, c->dir) - c->dmin) / (c->dmax - c->dmin);
    *px = (int)floor(sx) - PIC_SPLAT / 2;
    *py = (int)floor(sy) - PIC_SPLAT / 2;
    *depth = (float)(d * PIC_DEPTH_MAX);
    if (*depth > PIC_DEPTH_MAX)
        *depth = PIC_DEPTH_MAX;
    return *px > -PIC_SPLAT && *px < c->w && *py > -PIC_SPLAT && *py < c->h;
}

uint32_t pic_velocity_color(const pic_camera_t *c, double vx)
{
    double t = (vx - c->vmin) / (c->vmax - c->vmin), r, g, b;

    t = t < 0 ? 0 : t > 1 ? 1 : t;
    if (t < 0.5) { /* blue -> white */
        r = 0.15 + 1.7 * t;
        g = 0.35 + 1.3 * t;
        b = 1.0;
    } else { /* white -> red */
        r = 1.0;
        g = 1.0 - 1.6 * (t - 0.5);
        b = 1.0 - 1.8 * (t - 0.5);
    }
    return (uint32_t)(r * 255.0 + 0.5) | (uint32_t)(g * 255.0 + 0.5) << 8 | (uint32_t)(b * 255.0 + 0.5) << 16 |
           255u << 24;
}

size_t pic_pixel_size(pic_composite_mode_t mode)
{
    return mode == PIC_COMPOSITE_ZBUFFER ? sizeof(pic_zpixel_t) : sizeof(pic_opixel_t);
}

int pic_renderer_init(pic_renderer_t *r, pic_composite_mode_t mode, int w, int h, double lx, double ly,
                      double vmin, double vmax)
{
    memset(r, 0, sizeof *r);
    r->mode = mode;
    pic_camera_init(&r->cam, w, h, lx, ly, vmin, vmax);
    r->image = malloc(pic_pixel_size(mode) * (size_t)w * (size_t)h);
    return r->image != NULL ? 0 : -1;
}

void pic_background(pic_composite_mode_t mode, void *pixel)
{
    static const pic_zpixel_t z = {1.0f, {0, 0, 0, 0}};
    static const pic_opixel_t o = {{0, 0, 0, 0}};

    if (mode == PIC_COMPOSITE_ZBUFFER)
        memcpy(pixel, &z, sizeof(z));
    else
        memcpy(pixel, &o, sizeof(o));
}

void pic_renderer_free(pic_renderer_t *r)
{
    free(r->image);
    free(r->frags);
    memset(r, 0, sizeof *r);
}

void pic_render_begin(pic_renderer_t *r)
{
    size_t i, n = (size_t)r->cam.w * (size_t)r->cam.h;

    r->nfrags = 0;
    if (r->mode == PIC_COMPOSITE_ZBUFFER) {
        pic_zpixel_t *z = r->image, bg;

        pic_background(PIC_COMPOSITE_ZBUFFER, &bg);
        for (i = 0; i < n; i++)
            z[i] = bg;
    } else {
        memset(r->image, 0, n * sizeof(pic_opixel_t)); /* pic_background's transparent pixel */
    }
}

/* zbuffer: keeps the nearer of (depth, colour) and the pixel. */
static inline void z_keep(pic_zpixel_t *px, float depth, uint32_t color)
{
    uint32_t cur;

    memcpy(&cur, px->rgba, 4);
    if (depth < px->depth || (depth == px->depth && color < cur)) {
        px->depth = depth;
        memcpy(px->rgba, &color, 4);
    }
}

static int add_fragment(pic_renderer_t *r, uint32_t pixel, float depth, uint32_t color)
{
    if (r->nfrags == r->capfrags) {
        size_t cap = r->capfrags ? 2 * r->capfrags : 4096;
        pic_fragment_t *f = realloc(r->frags, cap * sizeof *f);

        if (f == NULL)
            return -1;
        r->frags = f;
        r->capfrags = cap;
    }
    r->frags[r->nfrags++] = (pic_fragment_t){pixel, depth, color};
    return 0;
}

int pic_render_add(pic_renderer_t *r, const pic_particle_t *p, long n)
{
    const pic_camera_t *c = &r->cam;
    long i;
    int px, py, dx, dy;
    float depth;

    for (i = 0; i < n; i++) {
        uint32_t color;

        if (!pic_camera_project(c, p[i].x, p[i].y, p[i].vx, &px, &py, &depth))
            continue;
        color = pic_velocity_color(c, p[i].vx);
        for (dy = 0; dy < PIC_SPLAT; dy++)
            for (dx = 0; dx < PIC_SPLAT; dx++) {
                int x = px + dx, y = py + dy;
                uint32_t pix = (uint32_t)y * (uint32_t)c->w + (uint32_t)x;

                if (x < 0 || x >= c->w || y < 0 || y >= c->h)
                    continue;
                if (r->mode == PIC_COMPOSITE_ZBUFFER)
                    z_keep((pic_zpixel_t *)r->image + pix, depth, color);
                else if (add_fragment(r, pix, depth, color) != 0)
                    return -1;
            }
    }
    return 0;
}

static int frag_cmp(const void *a, const void *b)
{
    const pic_fragment_t *x = a, *y = b;

    if (x->pixel != y->pixel)
        return x->pixel < y->pixel ? -1 : 1;
    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    return x->color < y->color ? -1 : x->color > y->color;
}

void pic_render_end(pic_renderer_t *r)
{
    pic_opixel_t *img = r->image;
    size_t i;

    if (r->mode != PIC_COMPOSITE_OVER)
        return;
    qsort(r->frags, r->nfrags, sizeof *r->frags, frag_cmp);
    for (i = 0; i < r->nfrags; i++) { /* front to back within each pixel */
        pic_opixel_t *px = &img[r->frags[i].pixel];
        uint32_t c = r->frags[i].color;
        float a = PIC_OVER_ALPHA, rest = 1.0f - px->rgba[3];
        int k;

        for (k = 0; k < 3; k++)
            px->rgba[k] += rest * a * (float)((c >> (8 * k)) & 255u) / 255.0f;
        px->rgba[3] += rest * a;
    }
}

void pic_zbuffer_combine(const pic_zpixel_t *in, pic_zpixel_t *inout, long n)
{
    long i;

    for (i = 0; i < n; i++) {
        uint32_t c;

        memcpy(&c, in[i].rgba, 4);
        z_keep(&inout[i], in[i].depth, c);
    }
}

void pic_over_combine(const pic_opixel_t *in, pic_opixel_t *inout, long n)
{
    long i;
    int k;

    for (i = 0; i < n; i++) {
        float rest = 1.0f - in[i].rgba[3];

        for (k = 0; k < 4; k++)
            inout[i].rgba[k] = in[i].rgba[k] + rest * inout[i].rgba[k];
    }
}

static uint8_t to8(float v)
{
    return v <= 0.0f ? 0 : v >= 1.0f ? 255 : (uint8_t)(v * 255.0f + 0.5f);
}

void pic_image_to_rgb(pic_composite_mode_t mode, const void *image, int w, int h, uint8_t *rgb)
{
    size_t i, n = (size_t)w * (size_t)h;
    int k;

    for (i = 0; i < n; i++)
        if (mode == PIC_COMPOSITE_ZBUFFER) {
            const pic_zpixel_t *z = (const pic_zpixel_t *)image + i;

            for (k = 0; k < 3; k++)
                rgb[3 * i + k] = z->depth < 1.0f ? z->rgba[k] : BACKGROUND[k];
        } else {
            const pic_opixel_t *o = (const pic_opixel_t *)image + i;

            for (k = 0; k < 3; k++)
                rgb[3 * i + k] = to8(o->rgba[k] + (1.0f - o->rgba[3]) * BACKGROUND[k] / 255.0f);
        }
}
