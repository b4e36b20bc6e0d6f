/*
 * Call-site IDs (docs/pmpi.md, "Call sites").  A call site is the stack
 * above the MPI entry point: PAPCOLL_SITE_DEPTH return addresses, each
 * resolved to (file name of its module, offset in the module) with dladdr,
 * so that the ID is the same on every rank whatever address space layout
 * randomisation did.  With PAPCOLL_SITE_ID=function each address stands for
 * the function that contains it (its entry, from the unwind tables), so
 * that calls a compiler duplicated, or an if/else whose branches make the
 * same call, are one site.  Resolving costs a dladdr per new address; a
 * small direct-mapped cache per thread makes repeated calls cost a few
 * loads.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "pmpi.h"

#define CACHE_SLOTS 256

typedef struct {
    uintptr_t addr;
    uint64_t id;
    int self; /* the address is in the interposer itself */
} slot_t;

static _Thread_local slot_t cache[CACHE_SLOTS];
static pthread_once_t self_once = PTHREAD_ONCE_INIT;
static void *self_base;

static void find_self(void)
{
    Dl_info info;

    if (dladdr((void *)find_self, &info) != 0)
        self_base = info.dli_fbase;
}

/* libgcc's lookup of the unwind entry that covers pc; bases->func is the
 * entry of the function (a GNU extension, not in a public header). */
struct dwarf_eh_bases {
    void *tbase;
    void *dbase;
    void *func;
};
const void *_Unwind_Find_FDE(void *pc, struct dwarf_eh_bases *bases);

/* The address that stands for a return address: itself, or the entry of
 * its function (PAPCOLL_SITE_ID=function).  pc - 1 lies in the call
 * instruction, inside the caller even when the call ends it. */
static uintptr_t anchor(uintptr_t addr)
{
    struct dwarf_eh_bases bases;

    if (!ip_g.cfg.by_function || addr == 0)
        return addr;
    if (_Unwind_Find_FDE((void *)(addr - 1), &bases) != NULL && bases.func != NULL)
        return (uintptr_t)bases.func;
    return addr;
}

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');

    return s ? s + 1 : path;
}

/* The cache slot of an address, filled on a miss: (module file name,
 * offset) hashed, or the address itself when dladdr cannot place it (then
 * ranks may differ, and the agreement says so). */
static const slot_t *resolve(uintptr_t addr)
{
    slot_t *s = &cache[(addr >> 2) % CACHE_SLOTS];
    Dl_info info;
    uint64_t h = 1469598103934665603ull;
    const char *p;

    uintptr_t a;

    if (s->addr == addr && addr != 0)
        return s;
    pthread_once(&self_once, find_self);
    s->self = 0;
    a = anchor(addr);
    if (dladdr((void *)addr, &info) != 0 && info.dli_fname != NULL) {
        for (p = base_name(info.dli_fname); *p; p++)
            h = (h ^ (unsigned char)*p) * 1099511628211ull;
        h = mix64(h ^ (uint64_t)(a - (uintptr_t)info.dli_fbase));
        s->self = info.dli_fbase == self_base;
    } else {
        h = mix64((uint64_t)a);
    }
    s->addr = addr;
    s->id = h;
    return s;
}

/* Depth > 1: the first depth frames outside the interposer, by unwinding. */
static uint64_t deep_key(void *caller, int depth)
{
    void *frames[IP_MAX_DEPTH + 32];
    int n = backtrace(frames, (int)(sizeof frames / sizeof frames[0])), i, used = 0;
    const slot_t *s;
    uint64_t h = 0;

    for (i = 0; i < n && used < depth; i++) {
        s = resolve((uintptr_t)frames[i]);
        if (s->self)
            continue;
        h = mix64(h ^ s->id);
        used++;
    }
    return used > 0 ? h : resolve((uintptr_t)caller)->id;
}

uint64_t ip_site_key(void *caller, int depth)
{
    return depth <= 1 ? resolve((uintptr_t)caller)->id : deep_key(caller, depth);
}

/* "module+0xOFFSET" of the call instruction (the return address minus 1,
 * what `addr2line -e module OFFSET` expects), or of the function's entry
 * (PAPCOLL_SITE_ID=function; `addr2line -f` names the function). */
void ip_site_label(void *caller, char *buf, size_t len)
{
    Dl_info info;
    uintptr_t a = ip_g.cfg.by_function ? anchor((uintptr_t)caller) : (uintptr_t)caller - 1;

    if (dladdr((void *)a, &info) != 0 && info.dli_fname != NULL)
        snprintf(buf, len, "%.28s+%#lx", base_name(info.dli_fname), (unsigned long)(a - (uintptr_t)info.dli_fbase));
    else
        snprintf(buf, len, "%#lx", (unsigned long)a);
}
