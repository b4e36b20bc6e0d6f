/*
 * Writing composited frames as PNG files (libpng).  Pure apart from the file.
 */
#ifndef PIC_FRAME_H
#define PIC_FRAME_H

#include <stddef.h>
#include <stdint.h>

/* Writes w x h 8-bit RGB pixels to path; 0, or -1 with one line in err. */
int pic_png_write(const char *path, int w, int h, const uint8_t *rgb, char *err, size_t errlen);

/* Reads an 8-bit RGB(A) PNG into a malloc'ed RGB array (tests); 0 or -1. */
int pic_png_read(const char *path, int *w, int *h, uint8_t **rgb, char *err, size_t errlen);

#endif /* PIC_FRAME_H */
