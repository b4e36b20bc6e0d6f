/*
 * The monitor under SimGrid SMPI (make smpi, docs/simulation.md): a
 * coroutine of the rank's own simulated actor instead of a thread.
 *
 * SMPI grants MPI_THREAD_SINGLE, and a second SimGrid actor cannot speak
 * MPI as its rank (SimGrid 3.32 posts its receives in its own mailbox,
 * where no sender looks).  So each site's monitor_main runs unchanged on
 * its own stack (ucontext) inside the rank's actor, and every MPI call it
 * makes is the rank's.  It runs until it would wait: for a job (the
 * application wakes it when it queues one) or between two polls of a
 * background part (p2p.c's nap, after which it is due again).  The
 * application drives the due monitors whenever it waits in the library
 * (for a decision, a background part, a poll) and while it sleeps in
 * papcoll_sim_sleep, so a background part progresses in simulated time
 * while the rank sleeps; during a burst of real computation it does not.
 */
#ifndef PAPCOLL_COOP_H
#define PAPCOLL_COOP_H

#ifdef PAPCOLL_SMPI
#include <ucontext.h>

typedef struct papcoll__coop {
    ucontext_t uc, back; /* the monitor's context; where it returns to */
    char *stack;
    double wake; /* simulated time from which it is due; INFINITY: waits for a job */
    int done;    /* its function returned */
    void (*fn)(void *);
    void *arg;
    struct papcoll__coop *next; /* the rank's monitors */
} papcoll__coop_t;

/* Starts fn(arg) as a monitor of this rank; it runs at once until it waits. */
int papcoll__coop_start(papcoll__coop_t *c, void (*fn)(void *), void *arg);
/* Drives c until its function returned (the caller asked it to stop). */
void papcoll__coop_join(papcoll__coop_t *c);
/* A condition wait: in a monitor, it yields until woken; in the
 * application, it drives the due monitors once, or sleeps until one is due. */
void papcoll__coop_wait(void);
/* The application queued a job for c: c runs now, until it waits. */
void papcoll__coop_wake(papcoll__coop_t *c);
/* Between two polls, *ns (doubled up to max_ns): in a monitor it yields for
 * *ns; in the application it drives the due monitors, then naps if nap. */
void papcoll__coop_backoff(long *ns, long max_ns, int nap);
/* Whether the caller is a monitor or a monitor of the rank has work (a
 * poll pending, or a job it has not finished): then the rank must poll. */
int papcoll__coop_busy(void);
#endif

#endif
