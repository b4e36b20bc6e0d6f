/*
 * pic_pngdiff A.png B.png [TOL]: compares two frames of bin/pic pixel by
 * pixel (tests/pic.sh).  Prints the largest difference of any channel (in
 * 1/255 steps) and the number of differing pixels; exit 0 when the largest
 * difference is at most TOL (default 0: identical), 1 otherwise, 2 on error.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "../apps/pic/frame.h"

int main(int argc, char **argv)
{
    uint8_t *a = NULL, *b = NULL;
    int wa, ha, wb, hb, maxd = 0, rc = 2;
    long i, n, differ = 0, tol = 0;
    char err[512];

    if (argc < 3 || argc > 4 || (argc == 4 && cli_parse_long(argv[3], 0, 255, &tol) != 0)) {
        fprintf(stderr, "usage: pic_pngdiff A.png B.png [TOL]\n");
        return 2;
    }
    if (pic_png_read(argv[1], &wa, &ha, &a, err, sizeof err) != 0 ||
        pic_png_read(argv[2], &wb, &hb, &b, err, sizeof err) != 0) {
        fprintf(stderr, "pic_pngdiff: %s\n", err);
        goto out;
    }
    if (wa != wb || ha != hb) {
        printf("pic_pngdiff: sizes differ: %dx%d and %dx%d\n", wa, ha, wb, hb);
        rc = 1;
        goto out;
    }
    n = (long)wa * ha;
    for (i = 0; i < n; i++) {
        int k, d = 0;

        for (k = 0; k < 3; k++)
            d = abs(a[3 * i + k] - b[3 * i + k]) > d ? abs(a[3 * i + k] - b[3 * i + k]) : d;
        differ += d > 0;
        maxd = d > maxd ? d : maxd;
    }
    printf("pic_pngdiff: %dx%d, largest difference %d/255, %ld pixels differ\n", wa, ha, maxd, differ);
    rc = maxd <= tol ? 0 : 1;
out:
    free(a);
    free(b);
    return rc;
}
