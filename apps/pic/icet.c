/*
 * IceT backend (see icet.h).  The strategy names and this file's interface
 * exist in every build; the calls into IceT only with PIC_HAVE_ICET.
 */
#include "icet.h"

#include <stdlib.h>
#include <string.h>

#define NAME_ENTRY(name, summary) #name,
#define SUMMARY_ENTRY(name, summary) summary,
static const char *const strategy_names[] = {PIC_ICET_STRATEGIES(NAME_ENTRY)};
static const char *const strategy_summaries[] = {PIC_ICET_STRATEGIES(SUMMARY_ENTRY)};
#define NSTRATEGIES ((int)(sizeof strategy_names / sizeof strategy_names[0]))

int pic_icet_find(const char *name)
{
    int i;

    for (i = 0; i < NSTRATEGIES; i++)
        if (strcmp(name, strategy_names[i]) == 0)
            return i;
    return -1;
}

const char *pic_icet_name(int strategy)
{
    return strategy >= 0 && strategy < NSTRATEGIES ? strategy_names[strategy] : "?";
}

const char *pic_icet_summary(int strategy)
{
    return strategy >= 0 && strategy < NSTRATEGIES ? strategy_summaries[strategy] : "?";
}

int pic_icet_count(void)
{
    return NSTRATEGIES;
}

#ifdef PIC_HAVE_ICET

#include <IceT.h>
#include <IceTMPI.h>

struct pic_icet {
    MPI_Comm comm;
    IceTCommunicator icomm;
    IceTContext ctx;
    pic_composite_mode_t mode;
    int w, h, rank;
    unsigned char *color; /* zbuffer: RGBA8 */
    float *depth;         /* zbuffer: depth */
};

static const IceTEnum strategy_enums[] = {ICET_SINGLE_IMAGE_STRATEGY_RADIXK, ICET_SINGLE_IMAGE_STRATEGY_BSWAP,
                                          ICET_SINGLE_IMAGE_STRATEGY_TREE, ICET_SINGLE_IMAGE_STRATEGY_AUTOMATIC};

int pic_icet_available(void)
{
    return 1;
}

const char *pic_icet_version(void)
{
    return ICET_VERSION;
}

/* The composite order of `over`: front (rank 0) to back. */
static int set_order(int P)
{
    IceTInt *order = malloc(sizeof(IceTInt) * (size_t)P);
    int i;

    if (order == NULL)
        return -1;
    for (i = 0; i < P; i++)
        order[i] = i;
    icetEnable(ICET_ORDERED_COMPOSITE);
    icetCompositeOrder(order);
    free(order);
    return 0;
}

int pic_icet_init(pic_icet_t **out, MPI_Comm comm, int strategy, pic_composite_mode_t mode, int w, int h)
{
    pic_icet_t *ic = calloc(1, sizeof *ic);
    int P, rc = 0;

    *out = NULL;
    if (ic == NULL || strategy < 0 || strategy >= NSTRATEGIES)
        return free(ic), -1;
    MPI_Comm_dup(comm, &ic->comm);
    MPI_Comm_rank(ic->comm, &ic->rank);
    MPI_Comm_size(ic->comm, &P);
    ic->mode = mode;
    ic->w = w;
    ic->h = h;
    ic->icomm = icetCreateMPICommunicator(ic->comm);
    ic->ctx = icetCreateContext(ic->icomm);
    icetResetTiles();
    icetAddTile(0, 0, w, h, 0);
    icetStrategy(ICET_STRATEGY_SEQUENTIAL);
    icetSingleImageStrategy(strategy_enums[strategy]);
    if (mode == PIC_COMPOSITE_ZBUFFER) {
        icetSetColorFormat(ICET_IMAGE_COLOR_RGBA_UBYTE);
        icetSetDepthFormat(ICET_IMAGE_DEPTH_FLOAT);
        icetCompositeMode(ICET_COMPOSITE_MODE_Z_BUFFER);
        icetDisable(ICET_COMPOSITE_ONE_BUFFER); /* keep the depth of the result, not only its colour */
        ic->color = malloc((size_t)w * (size_t)h * 4);
        ic->depth = malloc(sizeof(float) * (size_t)w * (size_t)h);
        rc = ic->color && ic->depth ? 0 : -1;
    } else {
        icetSetColorFormat(ICET_IMAGE_COLOR_RGBA_FLOAT);
        icetSetDepthFormat(ICET_IMAGE_DEPTH_NONE);
        icetCompositeMode(ICET_COMPOSITE_MODE_BLEND);
        rc = set_order(P);
    }
    *out = ic;
    return rc == 0 && icetGetError() == ICET_NO_ERROR ? 0 : -1;
}

int pic_icet_composite(pic_icet_t *ic, const void *image, void *result)
{
    static const IceTDouble identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    static const IceTFloat background[4] = {0, 0, 0, 0};
    const IceTInt viewport[4] = {0, 0, ic->w, ic->h};
    size_t i, n = (size_t)ic->w * (size_t)ic->h;
    IceTImage out;

    if (ic->mode == PIC_COMPOSITE_ZBUFFER) {
        const pic_zpixel_t *z = image;

        for (i = 0; i < n; i++) {
            memcpy(ic->color + 4 * i, z[i].rgba, 4);
            ic->depth[i] = z[i].depth;
        }
        out = icetCompositeImage(ic->color, ic->depth, viewport, identity, identity, background);
    } else {
        out = icetCompositeImage(image, NULL, viewport, identity, identity, background);
    }
    if (icetGetError() != ICET_NO_ERROR)
        return -1;
    if (ic->rank != 0)
        return 0;
    if (ic->mode == PIC_COMPOSITE_ZBUFFER) {
        const IceTUByte *c = icetImageGetColorcub(out);
        const IceTFloat *d = icetImageGetDepthcf(out);
        pic_zpixel_t *z = result;

        if (c == NULL || d == NULL)
            return -1;

        for (i = 0; i < n; i++) {
            memcpy(z[i].rgba, c + 4 * i, 4);
            z[i].depth = d[i];
        }
    } else {
        memcpy(result, icetImageGetColorcf(out), n * sizeof(pic_opixel_t));
    }
    return 0;
}

void pic_icet_free(pic_icet_t **icp)
{
    pic_icet_t *ic = *icp;

    if (ic == NULL)
        return;
    if (ic->ctx)
        icetDestroyContext(ic->ctx);
    if (ic->icomm)
        icetDestroyMPICommunicator(ic->icomm);
    MPI_Comm_free(&ic->comm);
    free(ic->color);
    free(ic->depth);
    free(ic);
    *icp = NULL;
}

#else /* !PIC_HAVE_ICET */

int pic_icet_available(void)
{
    return 0;
}

const char *pic_icet_version(void)
{
    return "not built in";
}

int pic_icet_init(pic_icet_t **out, MPI_Comm comm, int strategy, pic_composite_mode_t mode, int w, int h)
{
    (void)comm;
    (void)strategy;
    (void)mode;
    (void)w;
    (void)h;
    *out = NULL;
    return -1;
}

int pic_icet_composite(pic_icet_t *ic, const void *image, void *result)
{
    (void)ic;
    (void)image;
    (void)result;
    return -1;
}

void pic_icet_free(pic_icet_t **ic)
{
    *ic = NULL;
}

#endif
