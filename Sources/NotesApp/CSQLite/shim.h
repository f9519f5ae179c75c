// CSQLite: the system SQLite library, as a Clang module for NotesStorage. It exposes exactly
// <sqlite3.h> plus two helpers: one for a macro Swift cannot import, one that runs FTS5's own
// tokenizer (its API is a table of C function pointers and a callback, simpler to call from
// C). It links the system `libsqlite3`; nothing is vendored or compiled here.

#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT (a cast macro Swift cannot import): SQLite copies a bound value at once.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

/// Counts one token (the xToken callback of `csqlite_fts5_token_count`).
static inline int csqlite_count_token(
    void *context, int flags, const char *token, int length, int start, int end) {
  (void)token;
  (void)length;
  (void)start;
  (void)end;
  if ((flags & FTS5_TOKEN_COLOCATED) == 0) *(int *)context += 1;
  return SQLITE_OK;
}

/// How many tokens FTS5's tokenizer `name`, created with `arguments`, finds in a query text.
///
/// Asks the connection's FTS5 for its API (`SELECT fts5(?1)`, SQLite's documented way),
/// finds the tokenizer, creates it, tokenizes `text` as a query and deletes it. Returns an
/// SQLite result code; `*count` is set only on SQLITE_OK.
static inline int csqlite_fts5_token_count(
    sqlite3 *database, const char *name, const char **arguments, int argumentCount,
    const char *text, int textLength, int *count) {
  fts5_api *api = 0;
  sqlite3_stmt *statement = 0;
  int code = sqlite3_prepare_v2(database, "SELECT fts5(?1)", -1, &statement, 0);
  if (code != SQLITE_OK) return code;
  sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", 0);
  sqlite3_step(statement);
  code = sqlite3_finalize(statement);
  if (code != SQLITE_OK) return code;
  if (api == 0 || api->iVersion < 2) return SQLITE_ERROR;
  void *tokenizerContext = 0;
  fts5_tokenizer methods;
  code = api->xFindTokenizer(api, name, &tokenizerContext, &methods);
  if (code != SQLITE_OK) return code;
  Fts5Tokenizer *tokenizer = 0;
  code = methods.xCreate(tokenizerContext, arguments, argumentCount, &tokenizer);
  if (code != SQLITE_OK) return code;
  int tokens = 0;
  code = methods.xTokenize(
      tokenizer, &tokens, FTS5_TOKENIZE_QUERY, text, textLength, csqlite_count_token);
  methods.xDelete(tokenizer);
  if (code == SQLITE_OK) *count = tokens;
  return code;
}

#endif
