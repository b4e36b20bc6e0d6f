/*
 * Error messages of libpaptrace (from PAPTRACE_ERRNO_MAP).
 */
#include "paptrace.h"

const char *paptrace_strerror(int err)
{
    switch (err) {
#define PAPTRACE__ERR_MSG(name, value, msg) \
    case (value):                           \
        return (msg);
        PAPTRACE_ERRNO_MAP(PAPTRACE__ERR_MSG)
#undef PAPTRACE__ERR_MSG
    }
    return "unknown paptrace error";
}
