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
 * computes; with whole values, the root's own foreground from its arrival
 * on (HANDOVER, below).  It takes READYs in arrival order and orders what
 * the pairing rules of sched/dyn.h decide: ANY (Tree-dyn's slot), NEIGHBOUR
 * (Non-Commut-Tree-dyn's neighbouring ranges) or, for ANY when
 * papcoll__dyn_streams (docs/reduce.md says why), the streamed chain, whose
 * ranks get FROM (whose stream to take) and TO (where to stream) instead
 * of SEND and RECV; the first READY's segment count (the same on every
 * rank) tells the coordinator which rules apply.
 *
 * SPARSE (both policies, both modes): with the site's identity (sparse.h)
 *   values and segments travel run-length encoded around it; a whole
 *   value's receiver learns its size with MPI_Probe (the coordinating
 *   root, which cannot block on one source, posts a receive of the
 *   encoding's bound), a segment's receive has room for the dense size + 4
 *   bytes.
 * HANDOVER (all policies and modes): the root's READY (its arrival) makes
 *   the monitor thread pair the root as usual (whole values), send it
 *   HANDOVER (with its pairing, if any) and stop; the root's foreground
 *   then takes the remaining READYs and pairs them, and itself whenever it
 *   is idle, in the wait it does anyway.  A pairing then waits for no
 *   sleeping thread to be woken and scheduled (docs/reduce.md,
 *   "HANDOVER").  Streamed, the root reports too (only to be
 *   told HANDOVER, or its FROM when every non-root came first; the
 *   coordinator then still takes that READY, so none is left over).
 * LAST (sched/dyn.h): once the rules know the last pairing before its
 *   sender L reports, the root's foreground orders L at once
 *   (papcoll__dyn_last): it sends on arrival, without a READY/ORDER round
 *   trip, and its READY is only taken.  Streamed, the report before L's
 *   gives L its FROM and TO, its predecessor its TO L and the root its FROM
 *   L (marked late): L's input stream is on its way before L comes, and L's
 *   READY, which gives no order, is taken by the root's foreground.
 * PIECES (whole values, dense): a value travels in messages of at most
 *   segment_bytes (under Open MPI's eager limit by default), so that no
 *   pairing waits for a rendezvous round trip; the receiver of a pairing
 *   gets its ORDER before the sender, so its receives are mostly posted
 *   first.
 * In all the root never sends: a pairing that involves the root's value
 * makes the root receive.  The root's value is thus alive to the end and
 * the last pairing, between it and the one other value left, ends at the
 * root: the result needs no extra message, and a late root finds the
 * others' values already reduced to one (Marendic 2016, Prop. 3.7's best
 * case).  P - 1 pairings in all; READYs after the last one cannot exist
 * (every other rank has sent), so the coordinator stops after it.
 *
 * Messages per call: 2P - 2 READYs (4 bytes: the segment count) and 2P - 2
 * ORDERs of 16 bytes, P - 1 values (in pieces), less the root's: after HANDOVER its
 * READYs and the ORDERs it would get are function calls (streamed: P
 * READYs, 2P - 1 ORDERs or fewer, P - 1 streams).  Coordination on the critical path
 * per pairing: READY + ORDER latency (2 alpha) plus the coordinator's
 * reaction time, which HANDOVER cuts to the root's next poll, and LAST
 * removes for a late last rank (both modes).
 * Tags: READY alternates between two tags with the parity of the call (its
 * plan's index): a rank that finished call k may send its READY of call
 * k+1 while call k's coordinator still waits for others, and must not be
 * taken for one of them.  A READY of call k+2 cannot exist yet: it needs an
 * ORDER of call k+1, whose coordinator starts after call k's (one monitor
 * thread per x, jobs in order, the same host while the root is fixed;
 * a changed root drains the started part first, call.c).
 */
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/engine.h"
#include "sched/twotree.h"
#include "sparse.h"

/* ORDER kinds: then PAPCOLL__DYN_FROM (3), PAPCOLL__DYN_TO (4), and the root's
 * HANDOVER (the coordinator moves to its foreground; peer: whose value the
 * root receives now, -1: none). */
enum { ORD_SEND = 1, ORD_RECV = 2, ORD_HANDOVER = 5 };

static const char owner; /* marks the plan data as the coordinator's */

/* The coordinator's plan data: the pairing state, and 1 in handed once the
 * coordinator (monitor thread) handed it to the root's foreground: the
 * release/acquire pair that orders the two threads' accesses (the HANDOVER
 * message also does, inside MPI).  The state's arrays follow the struct. */
typedef struct {
    atomic_int handed;
    papcoll__dyn_t s;
} coord_t;

int papcoll__plan_red_dyn(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    coord_t *c = papcoll__plan_xdata(plan, &owner);

    plan->has_tree = 0;
    if (c != NULL && c->s.P == in->P)
        return PAPCOLL_OK;
    if ((c = malloc(sizeof(*c) + PAPCOLL__DYN_INTS(in->P) * sizeof(int))) == NULL)
        return PAPCOLL_ERR_NOMEM; /* the site's first plan only */
    papcoll__dyn_init(&c->s, in->P, (int *)(c + 1));
    papcoll__plan_xdata_set(plan, &owner, c, free);
    return PAPCOLL_OK;
}

/* ------------------------------------------------------------ messages */

/*
 * The next READY: its source and segment count.  A blocking receive: the
 * monitor thread sleeps in the MPI library until a READY comes (Open MPI
 * lets one waiting thread of a process drive progress and parks the others
 * on a condition variable), so the coordinator does not poll.  Polling
 * (MPI_Test with short naps) next to the root's blocked participant made
 * ranks leave received data unread for 60-250 ms in a fifth of the calls
 * on the emulated cluster (docs/reduce.md, "treedyn and noncommut_treedyn").  The root's
 * foreground, coordinating a streamed chain after HANDOVER, waits here too.
 * (Under SMPI papcoll__waitall polls instead: the monitor is a coroutine of
 * the rank there, and the root's participant must run beside it, p2p.c.)
 */
static int next_ready(MPI_Comm comm, int tag, int *src, int *S)
{
    MPI_Status st;
    MPI_Request rq;
    int rc = PAPCOLL__ERR(PMPI_Irecv(S, 1, MPI_INT, MPI_ANY_SOURCE, tag, comm, &rq));

    if (rc == PAPCOLL_OK && (rc = papcoll__waitall(1, &rq, &st)) == PAPCOLL_OK)
        *src = st.MPI_SOURCE;
    return rc;
}

/* An ORDER to dst: kind, then its peer, side (a FROM to the root: late)
 * and "last pairing" flag. */
static int order(MPI_Comm comm, int dst, int kind, int peer, int left, int final)
{
    int o[4] = {kind, peer, left, final};

    return papcoll__send_bytes(o, sizeof(o), dst, PAPCOLL__TAG_RED_ORDER, comm);
}

/* ------------------------------------------------------------ participant */

/* Combines a received value tmp (n bytes; sparse-encoded when id != NULL) into acc. */
static int absorb(const papcoll__args_t *a, const void *id, char *tmp, size_t n, char *acc, int left)
{
    if (id == NULL)
        return papcoll__red_combine(a, tmp, acc, a->sig.count, left);
    return papcoll__red_combine_sparse(a, tmp, n, acc, a->sig.count, left);
}

/*
 * A whole value travels in pieces of at most the context's segment_bytes
 * (by default just under Open MPI's eager limit), so that no pairing waits
 * for a rendezvous round trip: on the emulated cluster a 128 KiB value sent
 * in one message took about 0.4 ms longer after the last arrival
 * (docs/reduce.md, "treedyn and noncommut_treedyn").  With an identity the
 * value travels encoded, in one message whose size only the sender knows.
 */
static int pieces(const papcoll__args_t *a, const void *id)
{
    size_t seg = a->x->ctx->segment_bytes, k = (a->bytes + seg - 1) / seg;

    return id != NULL || k < 1 ? 1 : k > INT_MAX ? INT_MAX : (int)k;
}

/* Posts the K pieces of the value buf (bytes long) as receives from src or
 * sends to dst (send: 1), into rq[0..K). */
static int post_value(const papcoll__args_t *a, int send, char *buf, size_t bytes, int K, int peer,
                      MPI_Request *rq)
{
    int i, rc = PAPCOLL_OK;

    for (i = 0; i < K && rc == PAPCOLL_OK; i++) {
        size_t lo = papcoll__piece(bytes, K, i), hi = papcoll__piece(bytes, K, i + 1);

        rc = send ? papcoll__isend_bytes(buf + lo, hi - lo, peer, PAPCOLL__TAG_DATA, a->comm, &rq[i])
                  : papcoll__irecv_bytes(buf + lo, hi - lo, peer, PAPCOLL__TAG_DATA, a->comm, &rq[i]);
    }
    return rc;
}

/* Receives peer's value into tmp (cap bytes; sparse-encoded when id !=
 * NULL, its size from a probe), *n its bytes; rq: K requests.  Like every
 * wait of a whole-value participant it polls (p2p.c: napping where ranks
 * share cores, a->nap) instead of spinning in MPI: a rank waiting for a
 * late partner leaves shared cores to the ranks still computing. */
static int receive(const papcoll__args_t *a, const void *id, char *tmp, size_t cap, int peer, int K,
                   MPI_Request *rq, size_t *n)
{
    MPI_Message msg;
    int rc;

    *n = a->bytes;
    if (id == NULL) {
        rc = post_value(a, 0, tmp, a->bytes, K, peer, rq);
    } else {
        if ((rc = papcoll__fg_probe(peer, PAPCOLL__TAG_DATA, a->comm, &msg, n, a->nap)) != PAPCOLL_OK)
            return rc;
        if (*n > cap)
            return PAPCOLL_ERR_TRUNCATE;
        rc = PAPCOLL__ERR(papcoll__imrecv(tmp, (int)*n, MPI_BYTE, &msg, rq));
    }
    return rc != PAPCOLL_OK ? rc : papcoll__fg_waitall(K, rq, MPI_STATUSES_IGNORE, a->nap);
}

/* papcoll__sparse_merge's operation: hi := lo (op) hi. */
static int merge_op(void *arg, char *lo, char *hi, size_t len)
{
    return papcoll__reduce_local(arg, lo, hi, (int)len);
}

/* The coordinator's state, once its HANDOVER reached the root's
 * foreground (acquire: the monitor thread's writes are visible), else NULL. */
static papcoll__dyn_t *handed_state(const papcoll__args_t *a)
{
    coord_t *c = a->plan->xdata;

    if (a->plan->xowner != &owner || c == NULL || !atomic_load_explicit(&c->handed, memory_order_acquire))
        return NULL;
    return &c->s;
}

/* Posts the receive of the next READY of this call (tag) as *rq. */
static int post_ready(const papcoll__args_t *a, int tag, int *S, MPI_Request *rq)
{
    return PAPCOLL__ERR(PMPI_Irecv(S, 1, MPI_INT, MPI_ANY_SOURCE, tag, a->comm, rq));
}

/* Issues pairing pr from the root's foreground: the root's own receive
 * into tmp (posted first, so the value lands in place; K pieces in rq,
 * cap bytes when encoded) when it receives, and the ORDERs to the
 * receiver, then the sender (ordered: 1, it has its ORDER already). */
static int issue(const papcoll__args_t *a, const void *id, size_t cap, const papcoll__dyn_pair_t *pr,
                 int ordered, char *tmp, int K, MPI_Request *rq)
{
    int rc = PAPCOLL_OK;

    if (pr->rcv == a->root)
        rc = id == NULL ? post_value(a, 0, tmp, a->bytes, K, pr->snd, rq)
                        : papcoll__irecv_bytes(tmp, cap, pr->snd, PAPCOLL__TAG_DATA, a->comm, rq);
    else
        rc = order(a->comm, pr->rcv, ORD_RECV, pr->snd, pr->left, pr->final);
    if (rc == PAPCOLL_OK && !ordered)
        rc = order(a->comm, pr->snd, ORD_SEND, pr->rcv, 0, 0);
    return rc;
}

/*
 * The root's foreground after the HANDOVER ho (whole values): it is the
 * coordinator from its arrival on, taking READYs in one wait (napping) with
 * its own receive, and pairing itself whenever it is idle, without a
 * message.  So no pairing waits for a thread to wake: while the root's
 * foreground waits, the monitor thread blocked in MPI_Recv sleeps,
 * and each READY it gets first has to be handed to it and scheduled.
 * Once only the root's value and one rank's that has not reported are
 * left, that rank is told to send to the root before it comes
 * (papcoll__dyn_last); its READY, when it comes, is only taken.
 * acc: the root's value (its receive buffer); tmp: cap bytes.
 */
static int root_coordinate(const papcoll__args_t *a, const void *id, const int ho[4], int tag, char *acc,
                           char *tmp, size_t cap)
{
    papcoll__dyn_t *c = handed_state(a);
    papcoll__dyn_pair_t pr = {ho[1], a->root, ho[2], ho[3]}, mine = pr;
    int K = pieces(a, id), S, i, n = 0, pend = 0, done = 0, rc = PAPCOLL_OK; /* pend 0, not done: idle */
    MPI_Request *rq = malloc(((size_t)K + 1) * sizeof(*rq)); /* the root's receive, then the next READY */
    MPI_Status st;

    if (c == NULL || rq == NULL) {
        free(rq);
        /* no HANDOVER from this plan's coordinator: cannot happen */
        return c == NULL ? PAPCOLL_ERR_STATE : PAPCOLL_ERR_NOMEM;
    }
    for (i = 0; i <= K; i++)
        rq[i] = MPI_REQUEST_NULL;
    if (mine.snd >= 0) { /* the HANDOVER paired it: receive */
        rc = issue(a, id, cap, &mine, 1, tmp, K, rq);
        pend = K;
    }
    while (rc == PAPCOLL_OK) {
        if (papcoll__dyn_last(c, &pr)) { /* the last sender is known: order it now */
            rc = order(a->comm, pr.snd, ORD_SEND, pr.rcv, 0, 0);
            if (rc == PAPCOLL_OK && pend == 0 && papcoll__dyn_ready(c, a->root, &pr)) {
                rc = issue(a, id, cap, &pr, 1, tmp, K, rq);
                mine = pr, pend = K;
            }
        }
        if (rc != PAPCOLL_OK || (done && !papcoll__dyn_expects(c)))
            break;
        if (rq[K] == MPI_REQUEST_NULL && papcoll__dyn_expects(c) && (rc = post_ready(a, tag, &S, &rq[K])))
            break;
        if ((rc = papcoll__fg_waitany(K + 1, rq, &i, &st, a->nap)) != PAPCOLL_OK)
            break;
        if (i == MPI_UNDEFINED) {
            rc = PAPCOLL_ERR_STATE; /* nothing to wait for before the last pairing: cannot happen */
            break;
        }
        if (i == K) { /* a READY */
            if (papcoll__dyn_ready(c, st.MPI_SOURCE, &pr)) {
                rc = issue(a, id, cap, &pr, 0, tmp, K, rq);
                if (pr.rcv == a->root)
                    mine = pr, pend = K;
            }
            continue;
        }
        if (--pend > 0)
            continue; /* a piece of the root's receive */
        n = (int)a->bytes;
        if (id != NULL)
            rc = PAPCOLL__ERR(PMPI_Get_count(&st, MPI_BYTE, &n));
        if (rc == PAPCOLL_OK)
            rc = absorb(a, id, tmp, (size_t)n, acc, mine.left);
        if (rc != PAPCOLL_OK || (done = mine.final))
            continue;
        if (papcoll__dyn_ready(c, a->root, &pr)) { /* the root is idle again */
            rc = issue(a, id, cap, &pr, pr.snd == c->pre, tmp, K, rq);
            mine = pr, pend = K;
        }
    }
    if (rq[K] != MPI_REQUEST_NULL) { /* after the last pairing no READY comes */
        PMPI_Cancel(&rq[K]);
        PMPI_Wait(&rq[K], MPI_STATUS_IGNORE);
    }
    free(rq);
    return rc;
}

/*
 * Tree-dyn, whole values: report whenever idle, obey each ORDER.  With an
 * identity (sparse.h) values travel run-length encoded, and a non-root
 * keeps its own encoded from its arrival on: a received value is merged
 * into it (papcoll__sparse_merge) and a SEND sends it as it is, so the
 * work per pairing is in the active elements.  Decoding into a dense
 * accumulator (a copy of the vector) and encoding it again for the send
 * (a scan) read the whole vector at least twice per rank; on 8 ranks
 * sharing 2 cores that was most of a balanced `over` compositing's time
 * after the last arrival (docs/reduce.md, "Sparse values").  The root keeps
 * the dense result in its receive buffer and combines the runs into it.
 */
static int pair_participant(const papcoll__args_t *a, const void *id, int S, int tag)
{
    int order[4], root = a->rank == a->root, K = pieces(a, id), rc = PAPCOLL_OK;
    MPI_Request rq, *prq = malloc((size_t)K * sizeof(*prq)); /* the pieces of a value */
    size_t cap = papcoll__sparse_bound(a->sig.count, a->sig.esize), nb = a->bytes, got;
    int enc = id != NULL && !root; /* the value is kept encoded */
    char *acc = root ? a->rbuf : papcoll__scratch(a, PAPCOLL__SCR_ACC, enc ? cap : a->bytes);
    char *tmp = papcoll__scratch(a, PAPCOLL__SCR_TMP, cap);
    char *spare = enc ? papcoll__scratch(a, PAPCOLL__SCR_ENC, cap) : NULL, *t;

    if (prq == NULL || (acc == NULL && !root) || tmp == NULL || (enc && spare == NULL)) { /* root: rbuf */
        free(prq);
        return PAPCOLL_ERR_NOMEM;
    }
    if (enc)
        nb = papcoll__sparse_encode(a->sbuf, a->sig.count, a->sig.esize, id, acc);
    else
        papcoll__copy(acc, a->sbuf, a->bytes);
    while (rc == PAPCOLL_OK && a->size > 1) {
        if ((rc = papcoll__send_bytes(&S, sizeof(S), a->root, tag, a->comm)) != PAPCOLL_OK ||
            (rc = papcoll__irecv_bytes(order, sizeof(order), a->root, PAPCOLL__TAG_RED_ORDER, a->comm,
                                       &rq)) != PAPCOLL_OK ||
            (rc = papcoll__fg_waitall(1, &rq, MPI_STATUSES_IGNORE, a->nap)) != PAPCOLL_OK)
            break;
        if (order[0] == ORD_HANDOVER) { /* the root, on its arrival */
            rc = root_coordinate(a, id, order, tag, acc, tmp, id == NULL ? a->bytes : cap);
            break;
        }
        if (order[0] == ORD_SEND) {
            if ((rc = post_value(a, 1, acc, nb, K, order[1], prq)) == PAPCOLL_OK)
                rc = papcoll__fg_waitall(K, prq, MPI_STATUSES_IGNORE, a->nap);
            break;
        }
        if ((rc = receive(a, id, tmp, cap, order[1], K, prq, &got)) != PAPCOLL_OK)
            break;
        if (!enc) {
            rc = absorb(a, id, tmp, got, acc, order[2]);
        } else {
            int m = order[2] ? papcoll__sparse_merge(tmp, got, acc, nb, a->sig.count, a->sig.esize, id,
                                                     merge_op, (void *)a, spare, &nb)
                             : papcoll__sparse_merge(acc, nb, tmp, got, a->sig.count, a->sig.esize, id,
                                                     merge_op, (void *)a, spare, &nb);

            rc = m > 0 ? PAPCOLL_ERR_TRUNCATE : m;
            t = acc, acc = spare, spare = t;
        }
        if (order[3])
            break; /* the last pairing: acc is the result */
    }
    free(prq);
    return rc;
}

/* Elements of segment s of S (seg each, the last the rest). */
static int seg_len(const papcoll__args_t *a, int seg, int S, int s)
{
    return s < S - 1 ? seg : a->sig.count - s * seg;
}

/* Sends segment s (of S, seg elements each) of out to dst as sreq[s],
 * dense, or with an identity encoded into enc (segment s at s (segment
 * bytes + 4)), once segment s - WINDOW has left: the two trees' send window
 * (sched/twotree.h).  Without it the chain's first rank posts all S at
 * once, and a network model that shares the port among them (SimGrid's)
 * delivers them together at the end, so every hop ran store-and-forward;
 * an eager send completes at once, so the window holds rendezvous ones. */
static int send_seg(const papcoll__args_t *a, const void *id, const char *out, char *enc, int s, int S,
                    int seg, int dst, MPI_Request *sreq)
{
    size_t es = a->sig.esize, sb = (size_t)seg * es, n = (size_t)seg_len(a, seg, S, s);
    char *buf = enc + (size_t)s * (sb + 4);
    MPI_Request *req = &sreq[s];
    int rc = s >= PAPCOLL__TWOTREE_WINDOW
                 ? papcoll__waitall(1, &sreq[s - PAPCOLL__TWOTREE_WINDOW], MPI_STATUSES_IGNORE)
                 : PAPCOLL_OK;

    if (rc != PAPCOLL_OK)
        return rc;
    if (id == NULL)
        return papcoll__isend_bytes(out + s * sb, n * es, dst, PAPCOLL__TAG_DATA, a->comm, req);
    return papcoll__isend_bytes(buf, papcoll__sparse_encode(out + s * sb, n, es, id, buf), dst,
                                PAPCOLL__TAG_DATA, a->comm, req);
}

/* The root's foreground after a streamed HANDOVER: it takes the READYs
 * of the non-roots still to come and sends their orders until they give
 * the root its own FROM: *from, and *late (1: from was ordered ahead, its
 * READY is still to come). */
static int root_chain(const papcoll__args_t *a, int tag, int *from, int *late)
{
    papcoll__dyn_t *c = handed_state(a);
    papcoll__dyn_order_t o[PAPCOLL__DYN_MAXORD];
    int S, q, i, n, rc = PAPCOLL_OK;

    if (c == NULL)
        return PAPCOLL_ERR_STATE; /* no HANDOVER came from this plan's coordinator: cannot happen */
    while (rc == PAPCOLL_OK && c->pairs < c->P - 1) {
        if ((rc = next_ready(a->comm, tag, &q, &S)) != PAPCOLL_OK)
            break;
        for (n = papcoll__dyn_stream_ready(c, q, o), i = 0; i < n && rc == PAPCOLL_OK; i++)
            if (o[i].dst == a->root)
                *from = o[i].peer, *late = o[i].late;
            else
                rc = order(a->comm, o[i].dst, o[i].kind, o[i].peer, o[i].late, 0);
    }
    return rc;
}

/*
 * Streamed Tree-dyn, S segments: a non-root reports once, learns
 * where its input stream comes from (PAPCOLL__DYN_FROM; none for the first), then,
 * whenever the coordinator knows it, where its own stream goes (PAPCOLL__DYN_TO).
 * Each input segment is combined as it comes and sent on as soon as the
 * destination is known; the root only receives (its PAPCOLL__DYN_FROM names the
 * last reporter).  All receives are posted at once (into a full-size
 * buffer), so segments that arrive before their combine wait in place.
 * With an identity every segment travels encoded (its receive buffer has
 * room for the dense form + 4 bytes).
 */
static int stream_participant(const papcoll__args_t *a, const void *id, int S, int tag)
{
    int root = a->rank == a->root, seg = papcoll__red_seg_elems(a), from, to = -1, sent = 0, flag, s, got;
    int o1[4], o2[4], lateS, rc = PAPCOLL_OK;
    size_t es = a->sig.esize, sb = (size_t)seg * es, stride = id != NULL ? sb + 4 : sb;
    /* S receives, S sends, the TO order (the root: the READY of the rank it ordered ahead) */
    MPI_Request *rq = malloc((2 * (size_t)S + 1) * sizeof(*rq));
    char *acc = NULL, *tmp = NULL, *enc = NULL;
    const char *out = a->sbuf;
    MPI_Status st;

    if (rq == NULL)
        return PAPCOLL_ERR_NOMEM;
    for (s = 0; s <= 2 * S; s++)
        rq[s] = MPI_REQUEST_NULL;
    if (!root && id != NULL &&
        (enc = papcoll__scratch(a, PAPCOLL__SCR_ENC, a->bytes + 4 * (size_t)S)) == NULL) {
        rc = PAPCOLL_ERR_NOMEM;
        goto out;
    }
    if ((rc = papcoll__send_bytes(&S, sizeof(S), a->root, tag, a->comm)) != PAPCOLL_OK ||
        (rc = papcoll__recv_bytes(o1, sizeof(o1), a->root, PAPCOLL__TAG_RED_ORDER, a->comm)) != PAPCOLL_OK ||
        (root && o1[0] == ORD_HANDOVER && (rc = root_chain(a, tag, &o1[1], &o1[2])) != PAPCOLL_OK) ||
        (root && o1[2] &&
         (rc = PAPCOLL__ERR(PMPI_Irecv(&lateS, 1, MPI_INT, o1[1], tag, a->comm, &rq[2 * S]))) !=
             PAPCOLL_OK) ||
        (!root && (rc = papcoll__irecv_bytes(o2, sizeof(o2), a->root, PAPCOLL__TAG_RED_ORDER, a->comm,
                                             &rq[2 * S])) != PAPCOLL_OK))
        goto out;
    if ((from = o1[1]) >= 0) {
        acc = root ? a->rbuf : papcoll__scratch(a, PAPCOLL__SCR_ACC, a->bytes);
        if ((acc == NULL && !root) || /* the root's rbuf: NULL is legal when bytes is 0 */
            (tmp = papcoll__scratch(a, PAPCOLL__SCR_TMP, a->bytes + (stride - sb) * (size_t)S)) == NULL) {
            rc = PAPCOLL_ERR_NOMEM;
            goto out;
        }
        papcoll__copy(acc, a->sbuf, a->bytes);
        out = acc;
        for (s = 0; s < S && rc == PAPCOLL_OK; s++)
            rc = papcoll__irecv_bytes(tmp + s * stride, (size_t)seg_len(a, seg, S, s) * es + (stride - sb),
                                      from, PAPCOLL__TAG_DATA, a->comm, &rq[s]);
    }
    for (s = 0; s < S && rc == PAPCOLL_OK; s++) {
        int n = seg_len(a, seg, S, s);

        if (from >= 0 && (rc = papcoll__waitall(1, &rq[s], &st)) == PAPCOLL_OK) {
            if (id == NULL)
                rc = papcoll__red_combine(a, tmp + s * stride, acc + s * sb, n, 1);
            else if ((rc = PAPCOLL__ERR(PMPI_Get_count(&st, MPI_BYTE, &got))) == PAPCOLL_OK)
                rc = papcoll__red_combine_sparse(a, tmp + s * stride, (size_t)got, acc + s * sb, n, 1);
        }
        if (rc == PAPCOLL_OK && !root && to < 0 &&
            (rc = PAPCOLL__ERR(PMPI_Test(&rq[2 * S], &flag, MPI_STATUS_IGNORE))) == PAPCOLL_OK && flag)
            to = o2[1];
        for (; rc == PAPCOLL_OK && to >= 0 && sent <= s; sent++)
            rc = send_seg(a, id, out, enc, sent, S, seg, to, &rq[S]);
    }
    if (rc == PAPCOLL_OK && !root && to < 0 &&
        (rc = papcoll__waitall(1, &rq[2 * S], MPI_STATUSES_IGNORE)) == PAPCOLL_OK)
        to = o2[1];
    for (; rc == PAPCOLL_OK && !root && sent < S; sent++)
        rc = send_seg(a, id, out, enc, sent, S, seg, to, &rq[S]);
    if (rc == PAPCOLL_OK)
        rc = papcoll__waitall(2 * S + 1, rq, MPI_STATUSES_IGNORE);
out:
    free(rq);
    return rc;
}

int papcoll__red_dyn_participant(const papcoll__args_t *a, papcoll__dyn_policy_t policy)
{
    int tag = PAPCOLL__TAG_RED_READY + (a->x->plan->iter & 1), seg = papcoll__red_seg_elems(a);
    int S = (a->sig.count + seg - 1) / seg;
    const void *id = papcoll__red_identity(a);

    if (policy == PAPCOLL__DYN_ANY && papcoll__dyn_streams(a->size, S))
        return stream_participant(a, id, S, tag);
    return pair_participant(a, id, S, tag);
}

/* ------------------------------------------------------------ coordinator */

int papcoll__red_dyn_coordinator(papcoll__exec_t *x, const papcoll__plan_t *plan, int root,
                                 papcoll__dyn_policy_t policy)
{
    int P = x->ctx->size, tag = PAPCOLL__TAG_RED_READY + (x->plan->iter & 1), q, S, stream = -1;
    int rc = PAPCOLL_OK, i, n;
    coord_t *co = plan->xdata;
    papcoll__dyn_t *c;
    papcoll__dyn_pair_t pr;
    papcoll__dyn_order_t o[PAPCOLL__DYN_MAXORD];

    if (x->ctx->rank != root || P == 1)
        return PAPCOLL_OK; /* only the root coordinates */
    if (plan->xowner != &owner || co->s.P != P)
        return PAPCOLL_ERR_STATE; /* the planner did not run (cannot happen with a plan) */
    c = &co->s;
    atomic_store_explicit(&co->handed, 0, memory_order_relaxed);
    papcoll__dyn_reset(c, policy, root);
    while (rc == PAPCOLL_OK && c->pairs < P - 1) {
        if ((rc = next_ready(x->comm, tag, &q, &S)) != PAPCOLL_OK)
            break;
        if (stream < 0) /* every participant reports the same segment count */
            stream = policy == PAPCOLL__DYN_ANY && papcoll__dyn_streams(P, S);
        if (q == root) { /* the root came: its foreground coordinates on */
            pr = (papcoll__dyn_pair_t){-1, root, 0, 0};
            if (!stream && papcoll__dyn_ready(c, q, &pr))
                rc = order(x->comm, pr.snd, ORD_SEND, pr.rcv, 0, 0);
            atomic_store_explicit(&co->handed, 1, memory_order_release);
            return rc ? rc : order(x->comm, root, ORD_HANDOVER, pr.snd, pr.left, pr.final);
        }
        if (stream) {
            for (n = papcoll__dyn_stream_ready(c, q, o), i = 0; i < n && rc == PAPCOLL_OK; i++)
                rc = order(x->comm, o[i].dst, o[i].kind, o[i].peer, o[i].late, 0);
        } else if (papcoll__dyn_ready(c, q, &pr) &&
                   (rc = order(x->comm, pr.rcv, ORD_RECV, pr.snd, pr.left, pr.final)) == PAPCOLL_OK) {
            rc = order(x->comm, pr.snd, ORD_SEND, pr.rcv, 0, 0); /* the receiver first: it posts sooner */
        }
    }
    /* streamed, every non-root but at most one reported before the root:
     * the root's FROM is sent, and its READY (it sends one, not knowing) is
     * this call's last message here; the READY of a rank ordered ahead is
     * the root's foreground's to take (its FROM says so), so that this
     * thread does not wait in MPI beside it */
    if (rc == PAPCOLL_OK && stream)
        rc = papcoll__recv_bytes(&S, sizeof(S), root, tag, x->comm);
    return rc;
}
