/*
 * PNG frames through libpng's simplified API (see frame.h).
 */
#include "frame.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pic_png_write(const char *path, int w, int h, const uint8_t *rgb, char *err, size_t errlen)
{
    png_image img;

    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = (png_uint_32)w;
    img.height = (png_uint_32)h;
    img.format = PNG_FORMAT_RGB;
    img.flags = PNG_IMAGE_FLAG_FAST; /* frames are written in the loop: speed over size */
    if (!png_image_write_to_file(&img, path, 0, rgb, 0, NULL)) {
        snprintf(err, errlen, "cannot write '%s': %s", path, img.message);
        return -1;
    }
    return 0;
}

int pic_png_read(const char *path, int *w, int *h, uint8_t **rgb, char *err, size_t errlen)
{
    png_image img;

    *rgb = NULL;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) {
        snprintf(err, errlen, "cannot read '%s': %s", path, img.message);
        return -1;
    }
    img.format = PNG_FORMAT_RGB;
    *rgb = malloc(PNG_IMAGE_SIZE(img));
    if (*rgb == NULL || !png_image_finish_read(&img, NULL, *rgb, 0, NULL)) {
        snprintf(err, errlen, "cannot decode '%s': %s", path, *rgb ? img.message : "out of memory");
        png_image_free(&img);
        free(*rgb);
        *rgb = NULL;
        return -1;
    }
    *w = (int)img.width;
    *h = (int)img.height;
    return 0;
}
