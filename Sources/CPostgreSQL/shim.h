// libpq's types come from its header; its functions are found when a PostgreSQL source is first
// opened (the program is not linked against libpq), so that every other command starts without
// the client library and the twenty libraries it loads (TLS, Kerberos, LDAP, ...).
#include <postgresql/libpq-fe.h>
#include <dlfcn.h>
#include <stddef.h>

/// The libpq functions Trellis calls, each with the header's own type.
typedef struct {
    __typeof__(PQconnectdbParams) *connectdbParams;
    __typeof__(PQstatus) *status;
    __typeof__(PQerrorMessage) *errorMessage;
    __typeof__(PQconnectionNeedsPassword) *connectionNeedsPassword;
    __typeof__(PQconnectionUsedPassword) *connectionUsedPassword;
    __typeof__(PQfinish) *finish;
    __typeof__(PQgetCancel) *getCancel;
    __typeof__(PQfreeCancel) *freeCancel;
    __typeof__(PQcancel) *cancel;
    __typeof__(PQexecParams) *execParams;
    __typeof__(PQresultStatus) *resultStatus;
    __typeof__(PQresultErrorMessage) *resultErrorMessage;
    __typeof__(PQresultErrorField) *resultErrorField;
    __typeof__(PQclear) *clear;
    __typeof__(PQntuples) *ntuples;
    __typeof__(PQnfields) *nfields;
    __typeof__(PQfname) *fname;
    __typeof__(PQftype) *ftype;
    __typeof__(PQgetisnull) *getisnull;
    __typeof__(PQgetvalue) *getvalue;
    __typeof__(PQgetlength) *getlength;
} TrellisLibPQ;

/// The name the system's loader knows libpq 5 (every libpq since PostgreSQL 8.2) by.
#if defined(__APPLE__)
#define TRELLIS_LIBPQ_NAME "libpq.5.dylib"
#else
#define TRELLIS_LIBPQ_NAME "libpq.so.5"
#endif

/// Loads libpq from the library `name` (TRELLIS_LIBPQ_NAME) and fills `pq`; NULL when it did,
/// else the loader's message (copy it at once).
static inline const char *trellis_libpq_load(const char *name, TrellisLibPQ *pq) {
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return dlerror();
#define TRELLIS_FIND(field, symbol) \
    if ((pq->field = (__typeof__(pq->field))dlsym(library, #symbol)) == NULL) return dlerror();
    TRELLIS_FIND(connectdbParams, PQconnectdbParams)
    TRELLIS_FIND(status, PQstatus)
    TRELLIS_FIND(errorMessage, PQerrorMessage)
    TRELLIS_FIND(connectionNeedsPassword, PQconnectionNeedsPassword)
    TRELLIS_FIND(connectionUsedPassword, PQconnectionUsedPassword)
    TRELLIS_FIND(finish, PQfinish)
    TRELLIS_FIND(getCancel, PQgetCancel)
    TRELLIS_FIND(freeCancel, PQfreeCancel)
    TRELLIS_FIND(cancel, PQcancel)
    TRELLIS_FIND(execParams, PQexecParams)
    TRELLIS_FIND(resultStatus, PQresultStatus)
    TRELLIS_FIND(resultErrorMessage, PQresultErrorMessage)
    TRELLIS_FIND(resultErrorField, PQresultErrorField)
    TRELLIS_FIND(clear, PQclear)
    TRELLIS_FIND(ntuples, PQntuples)
    TRELLIS_FIND(nfields, PQnfields)
    TRELLIS_FIND(fname, PQfname)
    TRELLIS_FIND(ftype, PQftype)
    TRELLIS_FIND(getisnull, PQgetisnull)
    TRELLIS_FIND(getvalue, PQgetvalue)
    TRELLIS_FIND(getlength, PQgetlength)
#undef TRELLIS_FIND
    return NULL;
}
