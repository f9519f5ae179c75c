// libpq, PostgreSQL's C client library (Debian: libpq-dev), for the sync server.
#include <libpq-fe.h>

// Server notices ("relation already exists, skipping") would go to standard error;
// the connection reports what matters through its results instead.
static void cpostgres_ignore_notice(void *argument, const char *message) {
  (void)argument;
  (void)message;
}

static inline void cpostgres_silence_notices(PGconn *connection) {
  PQsetNoticeProcessor(connection, cpostgres_ignore_notice, NULL);
}
