/*
 * Rate fits on the amplitude history a(t) of the seeded mode (pure).
 *
 * Growth (two-stream): least squares of ln a against t over the linear
 * phase: from where a first exceeds its initial value by e^FIT_GROW_SKIP
 * (the growing eigenmode has outrun the others the seed also excites) to
 * where it is still e^FIT_GROW_MARGIN below saturation (by particle
 * trapping: the first decrease of a once it has grown enough for a window,
 * or the end of the run).
 *
 * Damped oscillation (Landau): |E| of a standing wave peaks twice per
 * period; the peaks are located by a parabola through the three samples
 * around each local maximum.  omega = pi / (slope of the peak times against
 * their index), gamma = slope of ln(peak) against peak time, both least
 * squares over the peaks in [t_min, t_max] that stand above the noise floor.
 */
#ifndef PIC_FIT_H
#define PIC_FIT_H

#define FIT_GROW_SKIP 3.0
#define FIT_GROW_MARGIN 1.5
#define FIT_MAX_PEAKS 256

typedef struct {
    int ok;          /* 1: enough data for a fit */
    double gamma;    /* growth (> 0) or damping (< 0) rate */
    double omega;    /* damped oscillation: real frequency */
    double t0, t1;   /* the window used */
    int points;      /* samples (growth) or peaks (oscillation) used */
    double r2;       /* coefficient of determination of the ln a fit */
    char why[96];    /* when !ok: why not */
} pic_fit_t;

/* Least squares y = a + b x over n points; returns b, *r2 = R^2 (NaN if undefined). */
double pic_linfit(const double *x, const double *y, int n, double *intercept, double *r2);

int pic_fit_growth(const double *t, const double *a, int n, pic_fit_t *out);

/*
 * A peak is the largest sample within +-sep (noise makes small maxima near
 * the zeros of |E|); floor: the first peak below floor * (largest peak) is
 * noise and ends the window.
 */
int pic_fit_damped(const double *t, const double *a, int n, double t_min, double t_max, double sep,
                   double floor, pic_fit_t *out);

#endif /* PIC_FIT_H */
