#!/bin/sh
# tails.sh RESULTS.CSV: per entry of a papbench results.csv, the calls whose
# last rank left more than 90 ms after the last rank arrived ("stalls"), and
# the mean and median of that time (ms).
awk -F, 'NR > 1 {
    ma = 0; mf = 0
    for (i = 7; i <= 14; i++) if ($i > ma) ma = $i
    for (i = 15; i <= 22; i++) if ($i > mf) mf = $i
    t = (mf - ma) * 1000; n[$1]++; sum[$1] += t; if (t > 90) s[$1]++
    v[$1, n[$1]] = t
} END {
    for (a in n) {
        m = n[a]; for (i = 1; i <= m; i++) w[i] = v[a, i]
        for (i = 2; i <= m; i++) { x = w[i]; for (j = i - 1; j >= 1 && w[j] > x; j--) w[j + 1] = w[j]; w[j + 1] = x }
        printf "%-18s calls %d  over 90 ms %3d  mean %.1f  median %.1f\n", a, m, s[a], sum[a] / m, w[int((m + 1) / 2)]
    }
}' "$1" | sort
