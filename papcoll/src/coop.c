/*
 * The monitors of a rank under SimGrid SMPI as coroutines of its actor
 * (coop.h).  Compiled only in the SMPI build (make smpi).
 *
 * Each rank keeps its monitors in a list hung on its SimGrid actor
 * (SMPI's ranks are actors of one process, so a static would be shared by
 * all ranks).  A monitor yields only in papcoll__coop_wait and
 * papcoll__coop_backoff, never while it holds state the application
 * reads, so the site's lock is not needed: nothing preempts.
 */
#ifdef PAPCOLL_SMPI
#include <math.h>
#include <simgrid/actor.h>
#include <stdlib.h>
#include <time.h>

#include "base.h"
#include "coop.h"

#define STACK_BYTES (1 << 20)

typedef struct {
    papcoll__coop_t *head;    /* the rank's monitors */
    papcoll__coop_t *current; /* the monitor running now; NULL: the application */
} ranks_coops_t;

static ranks_coops_t *coops(void)
{
    ranks_coops_t *r = sg_actor_self_get_data();

    if (r == NULL && (r = calloc(1, sizeof *r)) != NULL)
        sg_actor_self_set_data(r);
    return r;
}

static double now(void)
{
    return PMPI_Wtime();
}

/* Advances this rank's simulated time (smpicc maps nanosleep) until t.
 * Every PMPI_Wtime may advance it too (SMPI replays the CPU burst since the
 * last MPI call there), so the time left is read once, and a deadline
 * already past sleeps not at all (a negative span would become a timespec
 * of almost a second). */
static void sim_sleep_until(double t)
{
    double s = t - now();
    struct timespec ts;

    if (s <= 0)
        return;
    ts.tv_sec = (time_t)s;
    ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
    nanosleep(&ts, NULL);
}

static void entry(void)
{
    papcoll__coop_t *c = coops()->current;

    c->fn(c->arg);
    c->done = 1; /* uc_link returns to the last resume */
}

static void resume(ranks_coops_t *r, papcoll__coop_t *c)
{
    r->current = c;
    swapcontext(&c->back, &c->uc);
    r->current = NULL;
}

static void yield(papcoll__coop_t *c)
{
    swapcontext(&c->uc, &c->back);
}

/* Runs every due monitor until it waits; returns how many ran. */
static int run_due(ranks_coops_t *r)
{
    papcoll__coop_t *c;
    int n = 0;

    for (c = r->head; c != NULL; c = c->next)
        if (!c->done && c->wake <= now()) {
            resume(r, c);
            n++;
        }
    return n;
}

static double next_due(const ranks_coops_t *r)
{
    const papcoll__coop_t *c;
    double t = INFINITY;

    for (c = r->head; c != NULL; c = c->next)
        if (!c->done)
            t = fmin(t, c->wake);
    return t;
}

/* The application sleeps s seconds while the due monitors run. */
static void drive(ranks_coops_t *r, double s)
{
    double end = now() + s, t;

    for (;;) {
        if (r != NULL)
            run_due(r);
        t = r != NULL ? fmin(end, next_due(r)) : end;
        if (t > now())
            sim_sleep_until(t);
        else if (now() >= end)
            return;
    }
}

/* c's context on a new stack, entering entry() (getcontext returns once:
 * the context is entered by makecontext's function, not here). */
static int make(papcoll__coop_t *c)
{
    if ((c->stack = malloc(STACK_BYTES)) == NULL)
        return PAPCOLL_ERR_NOMEM;
    if (getcontext(&c->uc) != 0) {
        free(c->stack);
        return PAPCOLL_ERR_THREAD;
    }
    c->uc.uc_stack.ss_sp = c->stack;
    c->uc.uc_stack.ss_size = STACK_BYTES;
    c->uc.uc_link = &c->back;
    makecontext(&c->uc, entry, 0);
    return PAPCOLL_OK;
}

int papcoll__coop_start(papcoll__coop_t *c, void (*fn)(void *), void *arg)
{
    ranks_coops_t *r = coops();
    int rc;

    if (r == NULL)
        return PAPCOLL_ERR_NOMEM;
    if ((rc = make(c)) != PAPCOLL_OK)
        return rc;
    c->fn = fn;
    c->arg = arg;
    c->done = 0;
    c->wake = -INFINITY;
    c->next = r->head;
    r->head = c;
    resume(r, c);
    return PAPCOLL_OK;
}

void papcoll__coop_join(papcoll__coop_t *c)
{
    ranks_coops_t *r = coops();
    papcoll__coop_t **p;

    while (!c->done)
        papcoll__coop_wait();
    for (p = &r->head; *p != c; p = &(*p)->next)
        ;
    *p = c->next;
    free(c->stack);
    if (r->head == NULL) {
        sg_actor_self_set_data(NULL);
        free(r);
    }
}

void papcoll__coop_wait(void)
{
    ranks_coops_t *r = coops();
    double t;

    if (r->current != NULL) {
        r->current->wake = INFINITY;
        yield(r->current);
        return;
    }
    if (run_due(r) > 0)
        return;
    t = next_due(r);
    /* Nothing due: sleep until a monitor is (a poll), else a moment, so
     * that simulated time passes while the application re-checks. */
    sim_sleep_until(isfinite(t) && t > now() ? t : now() + 1e-6);
}

void papcoll__coop_wake(papcoll__coop_t *c)
{
    ranks_coops_t *r = coops();

    if (r->current != NULL)
        return; /* a monitor's own broadcast: the application re-checks when it drives */
    c->wake = -INFINITY;
    run_due(r);
}

void papcoll__coop_backoff(long *ns, long max_ns, int nap)
{
    ranks_coops_t *r = sg_actor_self_get_data();

    if (r != NULL && r->current != NULL) {
        r->current->wake = now() + 1e-9 * (double)*ns;
        yield(r->current);
    } else if (nap) {
        drive(r, 1e-9 * (double)*ns);
    } else if (r != NULL) {
        run_due(r);
    }
    if (*ns < max_ns)
        *ns *= 2;
}

int papcoll__coop_busy(void)
{
    const ranks_coops_t *r = sg_actor_self_get_data();

    return r != NULL && (r->current != NULL || isfinite(next_due(r)));
}

void papcoll_sim_sleep(double seconds)
{
    drive(sg_actor_self_get_data(), seconds);
}
#endif
