/*
 * Growth and damping rate fits (see fit.h).
 */
#include "fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double pic_linfit(const double *x, const double *y, int n, double *intercept, double *r2)
{
    double mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0, b;
    int i;

    for (i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= n;
    my /= n;
    for (i = 0; i < n; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
        syy += (y[i] - my) * (y[i] - my);
    }
    b = sxx > 0 ? sxy / sxx : NAN;
    if (intercept)
        *intercept = my - b * mx;
    if (r2)
        *r2 = sxx > 0 && syy > 0 ? sxy * sxy / (sxx * syy) : NAN;
    return b;
}

int pic_fit_growth(const double *t, const double *a, int n, pic_fit_t *out)
{
    int imax = 0, i, i0 = -1, i1 = -1, m;
    double lo, hi, *lt, *la;

    memset(out, 0, sizeof *out);
    out->gamma = out->omega = NAN;
    if (n < 3 || !(a[0] > 0)) {
        snprintf(out->why, sizeof out->why, "no amplitude history");
        return 0;
    }
    /* Saturation: the first decrease once a has grown enough for a window. */
    lo = log(a[0]) + FIT_GROW_SKIP;
    for (imax = 0; imax + 1 < n; imax++)
        if (log(a[imax]) >= lo + FIT_GROW_MARGIN + 2.0 && a[imax + 1] < a[imax])
            break;
    hi = log(a[imax]) - FIT_GROW_MARGIN;
    for (i = 0; i < imax; i++) {
        if (i0 < 0 && log(a[i]) >= lo)
            i0 = i;
        if (log(a[i]) <= hi)
            i1 = i;
    }
    if (i0 < 0 || i1 - i0 < 9 || hi - lo < 2.0) {
        snprintf(out->why, sizeof out->why, "no linear phase (ln growth %.1f, needs %.1f)", log(a[imax] / a[0]),
                 FIT_GROW_SKIP + FIT_GROW_MARGIN + 2.0);
        return 0;
    }
    m = i1 - i0 + 1;
    lt = malloc(sizeof(double) * (size_t)m);
    la = malloc(sizeof(double) * (size_t)m);
    if (lt == NULL || la == NULL) {
        snprintf(out->why, sizeof out->why, "out of memory");
        free(lt);
        free(la);
        return 0;
    }
    for (i = 0; i < m; i++) {
        lt[i] = t[i0 + i];
        la[i] = log(a[i0 + i]);
    }
    out->gamma = pic_linfit(lt, la, m, NULL, &out->r2);
    free(lt);
    free(la);
    out->ok = 1;
    out->t0 = t[i0];
    out->t1 = t[i1];
    out->points = m;
    return 1;
}

/* 1 when a[i] is the largest sample within +-sep of t[i] (ties: the first). */
static int is_peak(const double *t, const double *a, int n, int i, double sep)
{
    int j;

    for (j = i - 1; j >= 0 && t[i] - t[j] <= sep; j--)
        if (a[j] >= a[i])
            return 0;
    for (j = i + 1; j < n && t[j] - t[i] <= sep; j++)
        if (a[j] > a[i])
            return 0;
    return i > 0 && i + 1 < n;
}

/* Maxima of a over windows of +-sep in [t_min, t_max], refined by a parabola; returns the count. */
static int find_peaks(const double *t, const double *a, int n, double t_min, double t_max, double sep,
                      double *pt, double *pa)
{
    int i, k = 0;

    for (i = 1; i + 1 < n && k < FIT_MAX_PEAKS; i++) {
        double y0 = a[i - 1], y1 = a[i], y2 = a[i + 1], d, off;

        if (t[i] < t_min || t[i] > t_max || !is_peak(t, a, n, i, sep))
            continue;
        d = y0 - 2.0 * y1 + y2;
        off = d < 0 ? 0.5 * (y0 - y2) / d : 0.0;
        pt[k] = t[i] + off * (t[i + 1] - t[i]);
        pa[k] = y1 - 0.25 * (y0 - y2) * off;
        k++;
    }
    return k;
}

int pic_fit_damped(const double *t, const double *a, int n, double t_min, double t_max, double sep,
                   double floor, pic_fit_t *out)
{
    double pt[FIT_MAX_PEAKS], pa[FIT_MAX_PEAKS], idx[FIT_MAX_PEAKS], la[FIT_MAX_PEAKS], c, top = 0.0;
    int k, m, i;

    memset(out, 0, sizeof *out);
    out->gamma = out->omega = NAN;
    k = find_peaks(t, a, n, t_min, t_max, sep, pt, pa);
    for (i = 0; i < k; i++)
        top = fmax(top, pa[i]);
    for (m = 0; m < k && pa[m] > floor * top; m++) {
        idx[m] = m;
        la[m] = log(pa[m]);
    }
    if (m < 4) {
        snprintf(out->why, sizeof out->why, "%d peaks above the noise in t = [%.3g, %.3g], needs 4", m, t_min,
                 t_max);
        return 0;
    }
    out->omega = 3.141592653589793 / pic_linfit(idx, pt, m, &c, NULL);
    out->gamma = pic_linfit(pt, la, m, &c, &out->r2);
    out->ok = 1;
    out->t0 = pt[0];
    out->t1 = pt[m - 1];
    out->points = m;
    return 1;
}
