/*
 * In-situ sort-last rendering (pure, no MPI): every rank draws its own
 * particles into a full-size image, the images are then composited
 * (composite.h).
 *
 * The scene is the phase-space box (x / lx, (vx - vmin) / (vmax - vmin),
 * y / ly) seen by an orthographic camera whose viewing direction has a
 * positive x component.  Along every ray depth then grows with x, so the
 * slabs of the decomposition are depth-ordered along every ray: rank order
 * is front-to-back order, which is what makes `over` compositing in rank
 * order exact.  Particles are 2 x 2 pixel splats coloured by vx.
 *
 * Pixels:
 *   zbuffer: depth (float, 0 near .. PIC_DEPTH_MAX, background 1) and
 *            8-bit RGBA; the nearest fragment wins, ties by colour, so the
 *            local image does not depend on the particles' order;
 *   over:    premultiplied float RGBA; a rank's fragments are sorted by
 *            depth (ties by colour) and blended front to back.
 */
#ifndef PIC_RENDER_H
#define PIC_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "particles.h"

#define PIC_DEPTH_MAX 0.99f  /* farthest particle depth; the background is 1 */
#define PIC_OVER_ALPHA 0.35f /* opacity of one splat in `over` */
#define PIC_SPLAT 2          /* splat edge in pixels */

typedef struct {
    float depth;
    uint8_t rgba[4];
} pic_zpixel_t;

typedef struct {
    float rgba[4]; /* premultiplied */
} pic_opixel_t;

typedef enum { PIC_COMPOSITE_ZBUFFER = 0, PIC_COMPOSITE_OVER = 1 } pic_composite_mode_t;

typedef struct {
    int w, h;
    double lx, ly, vmin, vmax;
    double right[3], up[3], dir[3]; /* camera frame; dir[0] > 0 */
    double scale, ox, oy;           /* unit box -> pixels */
    double dmin, dmax;              /* depth range of the box */
} pic_camera_t;

/* One fragment of the `over` renderer. */
typedef struct {
    uint32_t pixel;
    float depth;
    uint32_t color; /* packed RGBA8 of the splat, alpha PIC_OVER_ALPHA */
} pic_fragment_t;

typedef struct {
    pic_camera_t cam;
    pic_composite_mode_t mode;
    void *image;           /* w * h pic_zpixel_t or pic_opixel_t */
    pic_fragment_t *frags; /* over: this frame's fragments */
    size_t nfrags, capfrags;
} pic_renderer_t;

void pic_camera_init(pic_camera_t *c, int w, int h, double lx, double ly, double vmin, double vmax);

/*
 * Projects a particle: 1 and the pixel (px, py) of its splat's corner and
 * its depth in [0, PIC_DEPTH_MAX], or 0 when the splat is off the image.
 */
int pic_camera_project(const pic_camera_t *c, double x, double y, double vx, int *px, int *py, float *depth);

/* Colour of velocity vx: a blue-white-red ramp over [vmin, vmax], opaque. */
uint32_t pic_velocity_color(const pic_camera_t *c, double vx);

int pic_renderer_init(pic_renderer_t *r, pic_composite_mode_t mode, int w, int h, double lx, double ly,
                      double vmin, double vmax);
void pic_renderer_free(pic_renderer_t *r);

/* A frame: begin clears, add draws particles [0, n) (call it in pieces), end blends (over). */
void pic_render_begin(pic_renderer_t *r);
/* The background pixel of mode (zbuffer: depth 1, colour 0; over: fully
 * transparent), an identity of its compositing operation: the compositing
 * site declares it (papcoll_site_set_identity) unless --sparse off. */
void pic_background(pic_composite_mode_t mode, void *pixel);
int pic_render_add(pic_renderer_t *r, const pic_particle_t *p, long n);
void pic_render_end(pic_renderer_t *r);

/* Bytes of one pixel of mode. */
size_t pic_pixel_size(pic_composite_mode_t mode);

/* The composited frame as 8-bit RGB over a dark background (for PNG). */
void pic_image_to_rgb(pic_composite_mode_t mode, const void *image, int w, int h, uint8_t *rgb);

/* Pixel operators, as MPI needs them: inout[i] = in[i] (op) inout[i].
 * zbuffer: nearest depth, ties by the packed colour (commutative, associative).
 * over: in is in front (lower ranks): inout = in + (1 - in.a) inout. */
void pic_zbuffer_combine(const pic_zpixel_t *in, pic_zpixel_t *inout, long n);
void pic_over_combine(const pic_opixel_t *in, pic_opixel_t *inout, long n);

#endif /* PIC_RENDER_H */
