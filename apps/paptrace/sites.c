/*
 * Site selection shared by the paptrace commands.
 */
#include <stdlib.h>
#include <string.h>

#include "paptrace_cli.h"

/* "a, b, c" of the file's site names, for error messages. */
static void site_names(const paptrace_file_t *f, char *buf, size_t len)
{
    size_t used = 0;
    int i;

    buf[0] = '\0';
    for (i = 0; i < f->nsites && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", f->sites[i].name);
    if (f->nsites == 0)
        snprintf(buf, len, "none recorded");
}

int pt_select_sites(const paptrace_file_t *f, const pt_opts_t *o, const paptrace_site_t ***list, int *n,
                    char *err, size_t errlen)
{
    const paptrace_site_t *one = NULL;
    char names[512];
    int i;

    *list = NULL;
    *n = 0;
    if (o->site != NULL && (one = paptrace_find_site(f, o->site)) == NULL) {
        site_names(f, names, sizeof names);
        snprintf(err, errlen, "no call site '%s' in the trace (sites: %s)", o->site, names);
        return -1;
    }
    if ((*list = calloc((size_t)f->nsites + 1, sizeof **list)) == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (o->site != NULL) {
        (*list)[0] = one;
        *n = 1;
        return 0;
    }
    for (i = 0; i < f->nsites; i++)
        (*list)[i] = &f->sites[i];
    *n = f->nsites;
    return 0;
}
