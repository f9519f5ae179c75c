// CSQLite: the system SQLite library, as a Clang module for NotesStorage.
//
// Guarantees
// - Exposes exactly <sqlite3.h> plus one helper Swift cannot import as a macro.
// - Links the system `libsqlite3`; nothing is vendored or compiled here.

#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT (a cast macro Swift cannot import): SQLite copies a bound value at once.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
