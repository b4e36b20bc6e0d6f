/*
 * The peer: IceT (Sandia's image compositing library, behind ParaView and
 * VisIt) compositing the same RGBA + depth buffers with icetCompositeImage.
 *
 * Optional: compiled in only when the IceT libraries and headers taken from
 * Debian's paraview packages are in the build tree (jobs/icet-fetch puts
 * them in build/icet/; the Makefile then defines PIC_HAVE_ICET).  Without
 * them pic_icet_available() is 0 and every icet:* name is refused at
 * configuration time with one line saying how to get it.
 */
#ifndef PIC_ICET_H
#define PIC_ICET_H

#include <mpi.h>

#include "render.h"

/* IceT single-image strategies by our name, in --help order. */
#define PIC_ICET_STRATEGIES(XX)                                                                  \
    XX(radixk, "radix-k (Peterka 2009), IceT's default")                                         \
    XX(bswap, "binary swap")                                                                     \
    XX(tree, "binary tree")                                                                      \
    XX(automatic, "IceT chooses")

typedef struct pic_icet pic_icet_t;

/* 1 when the program was built with IceT. */
int pic_icet_available(void);

/* Index of strategy name (without "icet:"), or -1. */
int pic_icet_find(const char *name);
const char *pic_icet_name(int strategy);
const char *pic_icet_summary(int strategy);
int pic_icet_count(void);

/* IceT's version string, or "not built in". */
const char *pic_icet_version(void);

/*
 * Collective over comm: an IceT context compositing w x h images of mode
 * onto rank 0 with strategy (ordered by rank for `over`).  0 or -1.
 */
int pic_icet_init(pic_icet_t **out, MPI_Comm comm, int strategy, pic_composite_mode_t mode, int w, int h);

/* Collective: composites image (this rank's pixels); rank 0 gets the frame in result. */
int pic_icet_composite(pic_icet_t *ic, const void *image, void *result);

void pic_icet_free(pic_icet_t **ic);

#endif /* PIC_ICET_H */
