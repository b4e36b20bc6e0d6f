/*
 * papcoll-algos: every algorithm of every operation, one per line as
 * "OP NAME ENV" (ENV: the variable that forces the op's algorithm), from
 * papcoll_algo_count, papcoll_algo_name and papcoll_op_env.  tests/pmpi.sh forces each of them.
 */
#include <stdio.h>
#include <string.h>

#include "papcoll.h"

int main(int argc, char **argv)
{
    int op, i;

    if (argc > 1) {
        printf("usage: papcoll-algos\nLists every papcoll algorithm as OP NAME ENV, one per line.\n");
        return strcmp(argv[1], "--help") == 0 ? 0 : 2;
    }
    for (op = 0; op < PAPCOLL_OP_COUNT; op++)
        for (i = 0; i < papcoll_algo_count((papcoll_op_t)op); i++)
            printf("%s %s %s\n", papcoll_op_name((papcoll_op_t)op), papcoll_algo_name((papcoll_op_t)op, i),
                   papcoll_op_env((papcoll_op_t)op));
    return 0;
}
