#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* prototype: direct reduce-scatter (arrival-order combine) + direct allgather */
static void rsag(float *v, float *tmp, int n, MPI_Comm c)
{
    int P, r; MPI_Comm_size(c, &P); MPI_Comm_rank(c, &r);
    int bs = (n + P - 1) / P;
    MPI_Request rq[64]; int k = 0;
    int lo = r * bs, len = lo >= n ? 0 : (n - lo < bs ? n - lo : bs);
    for (int i = 1; i < P; i++) { int s = (r - i + P) % P; MPI_Irecv(tmp + (size_t)i * bs, len, MPI_FLOAT, s, 1, c, &rq[k++]); }
    for (int i = 1; i < P; i++) { int d = (r + i) % P; int dl = d * bs; int dn = dl >= n ? 0 : (n - dl < bs ? n - dl : bs);
        MPI_Isend(v + dl, dn, MPI_FLOAT, d, 1, c, &rq[k++]); }
    for (int j = 0; j < P - 1; j++) { int idx; MPI_Waitany(P - 1, rq, &idx, MPI_STATUS_IGNORE);
        float *t = tmp + (size_t)(idx + 1) * bs; for (int e = 0; e < len; e++) v[lo + e] += t[e]; }
    MPI_Waitall(P - 1, rq + P - 1, MPI_STATUSES_IGNORE);
    k = 0;
    for (int i = 1; i < P; i++) { int s = (r - i + P) % P; int sl = s * bs; int sn = sl >= n ? 0 : (n - sl < bs ? n - sl : bs);
        MPI_Irecv(v + sl, sn, MPI_FLOAT, s, 2, c, &rq[k++]); }
    for (int i = 1; i < P; i++) { int d = (r + i) % P; MPI_Isend(v + lo, len, MPI_FLOAT, d, 2, c, &rq[k++]); }
    MPI_Waitall(k, rq, MPI_STATUSES_IGNORE);
}
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int n = atoi(argv[1]), it = atoi(argv[2]), P, r; MPI_Comm_size(MPI_COMM_WORLD, &P); MPI_Comm_rank(MPI_COMM_WORLD, &r);
    float *v = malloc(sizeof(float) * n), *w = malloc(sizeof(float) * n), *tmp = malloc(sizeof(float) * ((n + P - 1) / P) * P);
    double tm[2][400];
    for (int i = 0; i < it; i++) for (int m = 0; m < 2; m++) {
        for (int e = 0; e < n; e++) v[e] = r + e % 7;
        MPI_Barrier(MPI_COMM_WORLD); MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (m == 0) MPI_Allreduce(v, w, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); else rsag(v, tmp, n, MPI_COMM_WORLD);
        double t = MPI_Wtime() - t0, mx; MPI_Reduce(&t, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        tm[m][i] = mx;
        if (m == 1) for (int e = 0; e < n; e++) if (v[e] != (float)(P * (P - 1) / 2 + P * (e % 7))) { printf("BAD %d\n", e); MPI_Abort(MPI_COMM_WORLD, 1); }
    }
    if (r == 0) for (int m = 0; m < 2; m++) { double *a = tm[m]; for (int i = 0; i < it; i++) for (int j = i + 1; j < it; j++) if (a[j] < a[i]) { double x = a[i]; a[i] = a[j]; a[j] = x; }
        printf("%s median %.3f ms\n", m ? "rsag" : "mpi", a[it / 2] * 1e3); }
    MPI_Finalize();
}
