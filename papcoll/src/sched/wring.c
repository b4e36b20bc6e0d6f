/*
 * The weighted ring's port model and block planner (wring.h).
 */
#include <math.h>

#include "sched/wring.h"

size_t papcoll__wring_work(int P, size_t count, size_t seg)
{
    return 2 * (size_t)P * (count / seg + 2);
}

int papcoll__wring_block(int P, int q, int t)
{
    return t <= P - 2 ? ((q - t) % P + P) % P : ((q + 1 - (t - (P - 1))) % P + P) % P;
}

double papcoll__wring_time(int P, const double *arr, const size_t *len, const papcoll__wring_model_t *m,
                           double *work)
{
    size_t M = 0, b, j;
    double *outf, *inf, *prev, *cur, *swap, end = 0;
    int t, q;

    for (b = 0; b < (size_t)P; b++)
        M = (len[b] + m->seg - 1) / m->seg > M ? (len[b] + m->seg - 1) / m->seg : M;
    outf = work;
    inf = outf + P;
    prev = inf + P;
    cur = prev + (size_t)P * M;
    for (q = 0; q < P; q++) {
        outf[q] = inf[q] = arr[q];
        end = arr[q] > end ? arr[q] : end;
    }
    for (t = 0; t < 2 * (P - 1); t++) {
        for (q = 0; q < P; q++) {
            int r = (q + 1) % P, p = (q + P - 1) % P;
            size_t n = len[papcoll__wring_block(P, q, t)];

            for (j = 0; j * m->seg < n; j++) {
                double bytes = (double)(n - j * m->seg < m->seg ? n - j * m->seg : m->seg) * (double)m->esize;
                double ready =
                    t == 0 ? arr[q] : prev[(size_t)p * M + j] + (t <= P - 1 ? bytes * m->gamma : 0);
                double start = fmax(fmax(ready, outf[q]), fmax(inf[r], arr[r]));

                outf[q] = inf[r] = start + bytes * m->beta;
                cur[(size_t)q * M + j] = outf[q] + m->alpha;
                end = cur[(size_t)q * M + j] > end ? cur[(size_t)q * M + j] : end;
            }
        }
        swap = prev, prev = cur, cur = swap;
    }
    return end;
}

/* Equal blocks, the first count mod P one longer. */
static void equal_blocks(int P, size_t count, size_t *len)
{
    int q;

    for (q = 0; q < P; q++)
        len[q] = count / (size_t)P + ((size_t)q < count % (size_t)P);
}

int papcoll__wring_plan(int P, const double *arr, size_t count, const papcoll__wring_model_t *m,
                        double min_spread, size_t *len, double *work)
{
    static const int levels[] = {2, 4, 8};
    double lo = arr[0], hi = arr[0], best, t;
    int q, i, j, k, pass, improved, evals = 0;

    equal_blocks(P, count, len);
    for (q = 0; q < P; q++) {
        lo = arr[q] < lo ? arr[q] : lo;
        hi = arr[q] > hi ? arr[q] : hi;
    }
    if (P <= 2 || P > PAPCOLL__WRING_MAX_P || !(hi - lo > min_spread))
        return evals;
    best = papcoll__wring_time(P, arr, len, m, work);
    for (q = 1; q < P; q++) /* the chain: the whole vector in block 0 */
        len[0] += len[q], len[q] = 0;
    t = papcoll__wring_time(P, arr, len, m, work);
    evals += 2;
    if (t < best)
        best = t;
    else
        equal_blocks(P, count, len);
    for (k = 0; k < 3; k++) {
        size_t d = count / ((size_t)levels[k] * (size_t)P);

        for (pass = 0, improved = d > 0; improved && pass < 3; pass++)
            for (improved = 0, i = 0; i < P; i++)
                for (j = 0; j < P; j++) {
                    if (i == j || len[j] < d)
                        continue;
                    len[i] += d, len[j] -= d;
                    t = papcoll__wring_time(P, arr, len, m, work);
                    evals++;
                    if (t < best - 1e-9)
                        best = t, improved = 1;
                    else
                        len[i] -= d, len[j] += d;
                }
    }
    return evals;
}
