#include <stdio.h>
#include <math.h>
#include <time.h>
#include "policy.h"
#include "select.h"
static int ok(papcoll_op_t op, int a, void *arg) { (void)op; (void)a; (void)arg; return 1; }
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(void)
{
    double pred[8] = {0, 1e-4, 2e-4, 0, 1e-4, 3e-4, 0, 2e-4};
    papcoll__pin_t in = {.P = 8, .bytes = 131072, .commutative = 1, .has_monitor = 1, .alpha = 35e-6, .beta = 8.46e-9,
                         .gamma = 2e-11, .xbeta = 12.9e-9, .ralpha = 76e-6, .seg = 65536, .root = 0, .pred = pred,
                         .spread = 3e-4, .noise = 1e-4, .lag_noise = 1e-4, .last_algo = -1, .last_runtime = NAN, .last_spread = NAN, .lag = 2};
    papcoll__auto_cfg_t cfg = {0.25};
    papcoll__auto_out_t o;
    int i, n = 20000, base;
    double t0 = now();
    for (i = 0; i < n; i++) papcoll__auto_choose(PAPCOLL_OP_REDUCE, &in, &cfg, ok, NULL, &o);
    double t1 = now();
    for (i = 0; i < n; i++) papcoll__model_time(PAPCOLL_OP_REDUCE, &in, ok, NULL, &base);
    double t2 = now();
    for (i = 0; i < n; i++) papcoll_algo_find(PAPCOLL_OP_REDUCE, "clairvoyant");
    double t3 = now();
    printf("auto_choose %.2f us, model_time %.2f us, algo_find %.3f us (algo %d)\n", (t1 - t0) / n * 1e6, (t2 - t1) / n * 1e6, (t3 - t2) / n * 1e6, o.algo);
    return 0;
}
