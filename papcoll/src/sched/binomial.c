/*
 * Binomial trees over virtual ranks (see sched.h for the shape) and the
 * placement of real ranks on them.
 *
 * Cost (Hockney, P = 2^k, block b = N/P): log2(P) alpha + (P-1) b beta for
 * both gather and scatter (Proficz 2020, Eq. 7).
 */
#include <stdlib.h>

#include "sched/sched.h"

static int lowbit(int v)
{
    return v & -v;
}

static int ctz(int v)
{
    int c = 0;

    while (!(v & 1)) {
        v >>= 1;
        c++;
    }
    return c;
}

int papcoll__bn_parent(int v)
{
    return v == 0 ? -1 : v - lowbit(v);
}

int papcoll__bn_span(int v, int P)
{
    int lb;

    if (v == 0)
        return P;
    lb = lowbit(v);
    return lb < P - v ? lb : P - v;
}

int papcoll__bn_children(int v, int P, int *children)
{
    int n = 0, bit;

    bit = v == 0 ? 1 << papcoll__ceil_log2(P) : lowbit(v);
    for (bit >>= 1; bit > 0; bit >>= 1)
        if (v + bit < P)
            children[n++] = v + bit;
    return n;
}

/* Places order[] (root excluded) onto vranks 1..P-1 visited by the key
 * round(v) ascending, ties by vrank. */
static void place(int P, int root, const int *order, int *v2r, int gather)
{
    int L = papcoll__ceil_log2(P), round, v, i = 0, r;

    v2r[0] = root;
    for (round = 0; round < L; round++) {
        for (v = 1; v < P; v++) {
            int active = gather ? ctz(v) : L - 1 - ctz(v);
            if (active != round)
                continue;
            r = order[i++];
            if (r == root)
                r = order[i++];
            v2r[v] = r;
        }
    }
}

static void classic(int P, int root, int *v2r)
{
    int v;

    for (v = 0; v < P; v++)
        v2r[v] = (v + root) % P;
}

void papcoll__bn_map_gather(int P, int root, const int *order, int *v2r)
{
    if (order == NULL)
        classic(P, root, v2r);
    else
        place(P, root, order, v2r, 1);
}

void papcoll__bn_map_scatter(int P, int root, const int *order, int *v2r)
{
    if (order == NULL)
        classic(P, root, v2r);
    else
        place(P, root, order, v2r, 0);
}
