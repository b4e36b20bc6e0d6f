/*
 * Arrival-driven pairing (Benoit, Canon, Marchal 2013, Sect. 3.2: Tree-dyn
 * and Non-Commut-Tree-dyn), behind treedyn and noncommut_treedyn.
 *
 * Participants: every rank's foreground, the root's included.  A rank that
 * is idle (it just arrived, or finished a combine) sends READY to the
 * coordinator and waits for an ORDER: SEND (give your value to peer; you
 * are done) or RECV (receive peer's value and combine it on the given side;
 * when it is the last pairing you hold the result).
 *
 * Coordinator: the background part of the call's root, in its monitor
 * thread, so it serves READYs while the root's application thread still
 * computes.  It receives READYs in arrival order and pairs idle ranks:
 *   ANY (Tree-dyn): one slot.  A READY finds the slot empty: the rank waits
 *     there; else the slot's rank and the newcomer are paired, the newcomer
 *     sends (Benoit: "it sends its value to the processor that was in the
 *     slot").  Commutative operations only.
 *   NEIGHBOUR (Non-Commut-Tree-dyn): every value is the product of a range
 *     of ranks [lo, hi); a READY is paired with an idle holder of the range
 *     just below (preferred) or just above, else waits.  Ranges only merge
 *     with their neighbours, the lower one on the left: rank order is kept.
 * In both the root never sends: a pairing that involves the root's value
 * makes the root receive.  The root's value is thus alive to the end and
 * the last pairing, between it and the one other value left, ends at the
 * root: the result needs no extra message, and a late root finds the
 * others' values already reduced to one (Marendic 2016, Prop. 3.7's best
 * case).  P - 1 pairings in all; READYs after the last one cannot exist
 * (every other rank has sent), so the coordinator stops after it.
 *
 * Messages per call: 2P - 2 READYs and 2P - 2 ORDERs of 16 bytes, P - 1
 * values.  Coordination on the critical path per pairing: READY + ORDER
 * latency (2 alpha) plus the coordinator's reaction time.
 * Tags: READY alternates between two tags with the parity of the call (its
 * plan's index): a rank that finished call k may send its READY of call
 * k+1 while call k's coordinator still waits for others, and must not be
 * taken for one of them.  A READY of call k+2 cannot exist yet: it needs an
 * ORDER of call k+1, whose coordinator starts after call k's (one monitor
 * thread per site, jobs in order, the same host while the root is fixed;
 * a changed root drains the started part first, call.c).
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "clock.h"
#include "reduce/engine.h"

enum { ORD_SEND = 1, ORD_RECV = 2 };

static const char owner; /* marks the plan data as the coordinator's */

int papcoll__plan_red_dyn(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    papcoll__dyn_t *c = papcoll__plan_xdata(plan, &owner);

    plan->has_tree = 0;
    if (c != NULL && c->P == in->P)
        return PAPCOLL_OK;
    if ((c = malloc(sizeof(*c) + 5 * (size_t)in->P * sizeof(int))) == NULL)
        return PAPCOLL_ERR_NOMEM; /* the site's first plan only */
    c->P = in->P;
    c->hi = (int *)(c + 1);
    c->lo_of = c->hi + in->P;
    c->holder = c->lo_of + in->P;
    c->idle = c->holder + in->P;
    c->range = c->idle + in->P;
    papcoll__plan_xdata_set(plan, &owner, c, free);
    return PAPCOLL_OK;
}

/* ------------------------------------------------------------ participant */

int papcoll__red_dyn_participant(const papcoll__args_t *a)
{
    int tag = PAPCOLL__TAG_RED_READY + (a->site->plan.iter & 1), order[4], rc = PAPCOLL_OK;
    char *acc = a->rank == a->root ? a->rbuf : malloc(a->bytes + 1), *tmp = malloc(a->bytes + 1);

    if (acc == NULL || tmp == NULL) {
        rc = PAPCOLL_ERR_NOMEM;
        goto out;
    }
    papcoll__copy(acc, a->sbuf, a->bytes);
    while (rc == PAPCOLL_OK && a->size > 1) {
        if ((rc = papcoll__send_bytes(NULL, 0, a->root, tag, a->comm)) != PAPCOLL_OK ||
            (rc = papcoll__recv_bytes(order, sizeof(order), a->root, PAPCOLL__TAG_RED_ORDER, a->comm)) !=
                PAPCOLL_OK)
            break;
        if (order[0] == ORD_SEND) {
            rc = papcoll__send_bytes(acc, a->bytes, order[1], PAPCOLL__TAG_DATA, a->comm);
            break;
        }
        if ((rc = papcoll__recv_bytes(tmp, a->bytes, order[1], PAPCOLL__TAG_DATA, a->comm)) == PAPCOLL_OK)
            rc = papcoll__red_combine(a, tmp, acc, a->sig.count, order[2]);
        if (order[3])
            break; /* the last pairing: acc is the result */
    }
out:
    if (acc != a->rbuf)
        free(acc);
    free(tmp);
    return rc;
}

/* ------------------------------------------------------------ coordinator */

/*
 * The next READY's source.  Polls: MPI_Test, then sched_yield while the
 * last READY is less than 200 us old (a reduction's READYs come in bursts,
 * and yield leaves the core to the computation when it needs it), then
 * sleeps 20 us (the caller made the thread's timer slack fine: Linux's
 * default 50 us slack would make that about 70 us).
 */
static int next_ready(MPI_Comm comm, int tag, double *last, int *src)
{
    struct timespec nap = {0, 20000};
    MPI_Request req;
    MPI_Status st;
    int flag = 0, rc = PMPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, tag, comm, &req);

    while (rc == MPI_SUCCESS && (rc = PMPI_Test(&req, &flag, &st)) == MPI_SUCCESS && !flag) {
        if (papcoll__mono() - *last < 200e-6)
            sched_yield();
        else
            nanosleep(&nap, NULL);
    }
    *last = papcoll__mono();
    *src = st.MPI_SOURCE;
    return PAPCOLL__ERR(rc);
}

static int order(MPI_Comm comm, int dst, int kind, int peer, int left, int final)
{
    int o[4] = {kind, peer, left, final};

    return papcoll__send_bytes(o, sizeof(o), dst, PAPCOLL__TAG_RED_ORDER, comm);
}

void papcoll__dyn_reset(papcoll__dyn_t *c, papcoll__dyn_policy_t policy, int root)
{
    int r;

    c->policy = policy;
    c->root = root;
    c->slot = -1;
    c->pairs = 0;
    for (r = 0; r < c->P; r++) {
        c->hi[r] = r + 1;
        c->lo_of[r] = c->holder[r] = c->range[r] = r;
        c->idle[r] = 0;
    }
}

/* Tree-dyn: one slot; the newcomer sends, unless it is the root. */
static int any_ready(papcoll__dyn_t *c, int q, papcoll__dyn_pair_t *out)
{
    int s = c->slot;

    if (s < 0) {
        c->slot = q;
        return 0;
    }
    c->slot = -1;
    out->snd = q == c->root ? s : q;
    out->rcv = q == c->root ? q : s;
    out->left = 1; /* commutative: the cheaper side */
    return 1;
}

/* Merges the idle ranges starting at A (below) and B (above); the range
 * holding the root receives, else the upper one (the incoming value is then
 * its left operand: no copy). */
static int merge(papcoll__dyn_t *c, int A, int B, papcoll__dyn_pair_t *out)
{
    int top = c->hi[B], upper_gets = !(c->root >= A && c->root < B);

    out->rcv = upper_gets ? c->holder[B] : c->holder[A];
    out->snd = upper_gets ? c->holder[A] : c->holder[B];
    out->left = upper_gets;
    c->hi[A] = top;
    c->lo_of[top - 1] = A;
    c->hi[B] = -1;
    c->idle[A] = c->idle[B] = 0;
    c->holder[A] = out->rcv;
    c->range[out->rcv] = A;
    return 1;
}

/* Non-Commut-Tree-dyn: pair with an idle neighbouring range, the lower first. */
static int neighbour_ready(papcoll__dyn_t *c, int q, papcoll__dyn_pair_t *out)
{
    int lo = c->range[q], hi = c->hi[lo];

    c->idle[lo] = 1;
    if (lo > 0 && c->idle[c->lo_of[lo - 1]])
        return merge(c, c->lo_of[lo - 1], lo, out);
    if (hi < c->P && c->idle[hi])
        return merge(c, lo, hi, out);
    return 0;
}

int papcoll__dyn_ready(papcoll__dyn_t *c, int q, papcoll__dyn_pair_t *out)
{
    int paired = c->policy == PAPCOLL__DYN_ANY ? any_ready(c, q, out) : neighbour_ready(c, q, out);

    if (paired)
        out->final = ++c->pairs == c->P - 1;
    return paired;
}

int papcoll__red_dyn_coordinator(papcoll_site_t *site, const papcoll__plan_t *plan, int root,
                                 papcoll__dyn_policy_t policy)
{
    int P = site->ctx->size, tag = PAPCOLL__TAG_RED_READY + (site->plan.iter & 1), q, rc = PAPCOLL_OK;
    papcoll__dyn_t *c = plan->xdata;
    papcoll__dyn_pair_t pr;
    double last = 0;

    if (site->ctx->rank != root || P == 1)
        return PAPCOLL_OK; /* only the root coordinates */
    if (plan->xowner != &owner || c->P != P)
        return PAPCOLL_ERR_STATE; /* the planner did not run (cannot happen with a plan) */
    papcoll__dyn_reset(c, policy, root);
#ifdef __linux__
    long slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
#endif
    while (rc == PAPCOLL_OK && c->pairs < P - 1) {
        if ((rc = next_ready(site->comm, tag, &last, &q)) != PAPCOLL_OK || !papcoll__dyn_ready(c, q, &pr))
            continue;
        if ((rc = order(site->comm, pr.snd, ORD_SEND, pr.rcv, 0, 0)) == PAPCOLL_OK)
            rc = order(site->comm, pr.rcv, ORD_RECV, pr.snd, pr.left, pr.final);
    }
#ifdef __linux__
    if (slack > 0)
        prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0);
#endif
    return rc;
}
