internal import CSQLite
internal import Foundation  // strdup and free

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// An open SQLite database: the low-level connection under ``NotesDatabase``.
///
/// One open SQLite database handle, its statement cache and its transactions.
///
/// ## Guarantees
///
/// - Each distinct SQL text is prepared once and cached for the life of the connection;
///   `withStatement` hands out the cached statement and always resets it and clears its
///   bindings afterwards, so no statement keeps a read open or holds a stale binding.
/// - `transaction` runs its body between BEGIN IMMEDIATE and COMMIT. If the body or the
///   COMMIT throws, the transaction is rolled back before the error is rethrown, so a
///   failed transaction leaves the database exactly as it was. Transactions do not nest,
///   with one exception: inside `holdingWriteLock` (BEGIN IMMEDIATE taken ahead), a `read`
///   runs in the held transaction as it is, and the first `transaction` is the held one's
///   body and ends it (COMMIT, or a rollback if it throws), so the write is durable when it
///   returns. Whatever the held transaction has not ended when `holdingWriteLock` returns
///   is rolled back.
/// - A connection opened without creating, to a file that this user may not write or in
///   a folder it may not write, is opened read-only, and changes nothing on disk: with a
///   write-ahead log beside the file (someone has it open, or it was not closed cleanly)
///   SQLite reads the log as a read-only connection; without one, the file holds every
///   commit and is opened `immutable`, so no `-wal` or `-shm` file is created (SQLite
///   would create them with the file's read-only mode and leave them, and they would then
///   stop every later writer). An immutable read takes no lock, so every statement checks
///   afterwards that the file is as it was when opened, and throws `.changedWhileRead`
///   otherwise: what another writer changed is never returned half-read.
/// - Every SQLite failure becomes a `NotesStorageError`: SQLITE_NOTADB and SQLITE_CORRUPT
///   as `.notADatabase`, SQLITE_READONLY as `.unwritableLocation`, SQLITE_FULL, and an
///   I/O error caused by a full disk or quota (`ENOSPC`, `EDQUOT`, or no space left on its
///   file system), as `.diskFull`, other I/O errors as `.ioFailure`, a permission refused
///   by the system as `.permissionDenied`, the rest as `.sqlite` with the extended result
///   code and SQLite's message.
/// - After `close()` (or deinit) every statement is finalized and the handle is closed;
///   any further use throws `.closed`.
/// - Not thread-safe: the owner (a main-actor `NotesDatabase`) is its only user.
final class SQLiteConnection {
  /// The path the connection was opened with.
  let path: String
  private var database: OpaquePointer?
  private var statements: [String: Statement] = [:]
  /// Where the write-ahead log's checkpoints go, kept alive for the hook that names it.
  private var checkpointer: BackgroundCheckpointer?
  /// Whether `holdingWriteLock` has begun a transaction that no `transaction` ended yet.
  private var isHoldingWriteLock = false

  /// What the file was like when an immutable connection opened it; `nil` for others.
  private let openedIdentity: FileIdentity?

  /// How a connection opens its file.
  enum Mode: Equatable {
    /// For reading and writing; with `create`, a missing file is created.
    case readWrite(create: Bool)
    /// For reading only, changing nothing on disk (see the connection's guarantees).
    case readOnly
  }

  /// Opens the database at `path` for reading and writing, or, when it is not created
  /// and this user may not write it or its folder, for reading only.
  ///
  /// - Parameters:
  ///   - path: The file's path.
  ///   - create: Whether to create the file if it does not exist.
  ///   - vfs: The name of a registered SQLite VFS to open it through (tests inject disk
  ///     faults this way); `nil` for the default.
  /// - Throws: ``NotesStorageError/cannotOpen(path:reason:)`` with SQLite's reason, or
  ///   ``NotesStorageError/permissionDenied(path:)``.
  convenience init(path: String, create: Bool, vfs: String? = nil) throws(NotesStorageError) {
    let readOnly = !create && !FileLocation.isWritable(path)
    try self.init(path: path, mode: readOnly ? .readOnly : .readWrite(create: create), vfs: vfs)
  }

  /// Opens the database at `path` in `mode`.
  ///
  /// - Parameters:
  ///   - path: The file's path.
  ///   - mode: Reading and writing, or reading only.
  ///   - vfs: The name of a registered SQLite VFS to open it through; `nil` for the
  ///     default.
  /// - Throws: ``NotesStorageError/cannotOpen(path:reason:)`` with SQLite's reason, or
  ///   ``NotesStorageError/permissionDenied(path:)``.
  init(path: String, mode: Mode, vfs: String? = nil) throws(NotesStorageError) {
    self.path = path
    var handle: OpaquePointer?
    var flags = SQLITE_OPEN_NOMUTEX
    var name = path
    switch mode {
    case .readWrite(let create):
      flags |= SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
      openedIdentity = nil
    case .readOnly:
      // Without a log, the file is the whole database: read it as it is, creating nothing.
      let hasLog = access(path + "-wal", F_OK) == 0
      openedIdentity = hasLog ? nil : FileIdentity(path)
      flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
      name = Self.uri(path, immutable: !hasLog)
    }
    let code = sqlite3_open_v2(name, &handle, flags, vfs)
    guard code == SQLITE_OK, let handle else {
      let reason = handle.map { String(cString: sqlite3_errmsg($0)) }
      let system = handle.map { sqlite3_system_errno($0) } ?? 0
      sqlite3_close_v2(handle)
      if system == EACCES || code & 0xFF == SQLITE_PERM { throw .permissionDenied(path: path) }
      throw .cannotOpen(path: path, reason: reason ?? String(cString: sqlite3_errstr(code)))
    }
    sqlite3_extended_result_codes(handle, 1)
    database = handle
  }

  /// The URI that opens `path` read-only, `immutable` when nothing else can have changed
  /// it: `file:` and the path with every byte but letters, digits and `/._~-` escaped.
  static func uri(_ path: String, immutable: Bool) -> String {
    var encoded = path.hasPrefix("/") ? "file://" : "file:"
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "-"):
        encoded.append(Character(Unicode.Scalar(byte)))
      default:
        encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return encoded + "?mode=ro" + (immutable ? "&immutable=1" : "")
  }

  /// Throws ``NotesStorageError/changedWhileRead(path:)`` if the file of an immutable
  /// connection is no longer as it was when opened.
  private func checkUnchanged() throws(NotesStorageError) {
    guard let openedIdentity, FileIdentity(path) != openedIdentity else { return }
    throw .changedWhileRead(path: path)
  }

  deinit { close() }

  /// Whether the connection is open.
  var isOpen: Bool { database != nil }

  /// Whether SQLite opened the main database read-only (asked to, or the file is
  /// write-protected).
  var isReadOnly: Bool {
    guard let database else { return true }
    return sqlite3_db_readonly(database, "main") == 1
  }

  /// Whether no transaction is open.
  var isAutocommit: Bool {
    guard let database else { return true }
    return sqlite3_get_autocommit(database) != 0
  }

  /// The number of rows the last INSERT, UPDATE or DELETE changed (not counting triggers).
  var changedRowCount: Int32 {
    guard let database else { return 0 }
    return sqlite3_changes(database)
  }

  /// Finalizes every cached statement and closes the handle; later calls do nothing.
  func close() {
    statements.removeAll()
    if let database { sqlite3_close_v2(database) }
    database = nil
  }

  // MARK: Locks

  /// Waits up to `milliseconds` for another connection's lock, trying again every
  /// millisecond.
  ///
  /// SQLite's own busy timeout sleeps longer and longer between tries (up to 100 ms at a
  /// time), so a commit that meets a run of short transactions from another connection
  /// (history thinning, a sync batch, another process) can lose every try to the next one
  /// and wait far longer than any of them. Trying every millisecond takes the lock within
  /// about a millisecond of a release.
  func waitForLocks(upTo milliseconds: Int) {
    guard let database else { return }
    sqlite3_busy_handler(
      database,
      { limit, tries in
        guard Int(tries) < Int(bitPattern: limit) else { return 0 }
        usleep(1_000)
        return 1
      }, UnsafeMutableRawPointer(bitPattern: milliseconds))
  }

  // MARK: Checkpoints

  /// Hands the write-ahead log's checkpoints to `checkpointer` instead of running them in
  /// the commit that fills the log; `nil` gives them back to SQLite.
  ///
  /// The connection keeps `checkpointer` alive while its hook can call it.
  func checkpoint(in checkpointer: BackgroundCheckpointer?) {
    guard let database else { return }
    defer { self.checkpointer = checkpointer }
    guard let checkpointer else {
      sqlite3_wal_autocheckpoint(database, BackgroundCheckpointer.pages)
      return
    }
    // Replaces SQLite's own automatic checkpoints, which are a hook of the same kind.
    sqlite3_wal_hook(
      database,
      { context, _, _, pages in
        if pages >= BackgroundCheckpointer.pages, let context {
          Unmanaged<BackgroundCheckpointer>.fromOpaque(context).takeUnretainedValue().schedule()
        }
        return SQLITE_OK
      }, Unmanaged.passUnretained(checkpointer).toOpaque())
  }

  // MARK: Statements

  /// Runs `body` with the cached prepared statement for `sql`, then resets it.
  ///
  /// - Parameters:
  ///   - sql: One SQL statement; its text is the cache key.
  ///   - body: Binds, steps and reads the statement.
  /// - Returns: What `body` returns.
  /// - Throws: What preparing the statement or `body` throws.
  func withStatement<Result>(
    _ sql: String,
    _ body: (Statement) throws(NotesStorageError) -> Result
  ) throws(NotesStorageError) -> Result {
    let statement = try prepared(sql)
    defer { statement.reset() }
    let result = try body(statement)
    try checkUnchanged()
    return result
  }

  /// Runs one statement that returns no rows.
  func run(_ sql: String) throws(NotesStorageError) {
    try withStatement(sql) { statement throws(NotesStorageError) in
      while try statement.step() {}
    }
  }

  /// The integer in the first column of the first row of `sql`, or `nil` if no row.
  func int64(_ sql: String) throws(NotesStorageError) -> Int64? {
    try withStatement(sql) { statement throws(NotesStorageError) in
      try statement.step() ? statement.int64(at: 0) : nil
    }
  }

  /// The text in the first column of the first row of `sql`, or `nil` if no row.
  func string(_ sql: String) throws(NotesStorageError) -> String? {
    try withStatement(sql) { statement throws(NotesStorageError) in
      try statement.step() ? statement.string(at: 0) : nil
    }
  }

  /// Runs a script of several statements, without caching (for migrations).
  func execute(script: String) throws(NotesStorageError) {
    guard let database else { throw .closed }
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(database, script, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard code == SQLITE_OK else { throw error(code) }
  }

  private func prepared(_ sql: String) throws(NotesStorageError) -> Statement {
    if let statement = statements[sql] { return statement }
    guard let database else { throw .closed }
    let statement = try Statement(sql: sql, connection: self, database: database)
    statements[sql] = statement
    return statement
  }

  // MARK: Full-text tokens

  /// How many tokens FTS5's tokenizer finds in `text`, read as a query.
  ///
  /// - Parameters:
  ///   - text: The text to tokenize.
  ///   - tokenizer: The tokenizer's name and arguments, as in a `tokenize = '…'` option.
  /// - Returns: The number of tokens (synonyms not counted twice).
  /// - Throws: `.sqlite` if FTS5 or the tokenizer is missing or fails.
  func fullTextTokenCount(in text: String, tokenizer: [String]) throws(NotesStorageError) -> Int {
    guard let database else { throw .closed }
    guard let name = tokenizer.first else { return 0 }
    var count: Int32 = 0
    let code = withCStrings(Array(tokenizer.dropFirst())) { arguments in
      var text = text
      return text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { characters in
          csqlite_fts5_token_count(
            database, name, arguments.baseAddress, Int32(arguments.count),
            characters.baseAddress, Int32(characters.count), &count)
        }
      }
    }
    guard code == SQLITE_OK else { throw error(code) }
    return Int(count)
  }

  // MARK: Transactions

  /// Runs `body` with SQLite's page cache allowed to grow to `kibibytes` (with `nil`, as
  /// it is), then puts the previous limit back, which frees the pages over it.
  ///
  /// For a transaction that writes many rows: with the default cache (2 MiB) it spills
  /// dirty pages to the WAL and reads and writes them again.
  func withPageCache<Result>(
    kibibytes: Int?, _ body: () throws(NotesStorageError) -> Result
  ) throws(NotesStorageError) -> Result {
    guard let kibibytes else { return try body() }
    let previous = try int64("PRAGMA cache_size") ?? -2_000
    try run("PRAGMA cache_size = -\(kibibytes)")
    // Failing to shrink the cache again leaves it large, which costs memory, not data.
    defer { try? run("PRAGMA cache_size = \(previous)") }
    return try body()
  }

  /// Runs `body` inside BEGIN IMMEDIATE … COMMIT, rolling back if anything throws.
  ///
  /// - Parameter body: The transaction's work.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` or the COMMIT throws, after the rollback.
  func transaction<Result>(
    _ body: () throws(NotesStorageError) -> Result
  ) throws(NotesStorageError) -> Result {
    try inTransaction(begin: "BEGIN IMMEDIATE", body)
  }

  /// Runs `body` inside a read transaction, so every query sees one snapshot.
  func read<Result>(
    _ body: () throws(NotesStorageError) -> Result
  ) throws(NotesStorageError) -> Result {
    try inTransaction(begin: "BEGIN DEFERRED", body)
  }

  /// Runs `body` in a transaction begun with the write lock (BEGIN IMMEDIATE), so no other
  /// connection commits until `body`'s own ``transaction(_:)`` ends it; whatever is still
  /// open when `body` returns or throws is rolled back.
  ///
  /// - Parameter body: Reads, then at most one ``transaction(_:)``, which commits.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws, or the error taking the lock.
  func holdingWriteLock<Result>(_ body: () throws -> Result) throws -> Result {
    precondition(!isHoldingWriteLock && isAutocommit, "holdingWriteLock inside a transaction")
    try run("BEGIN IMMEDIATE")
    isHoldingWriteLock = true
    defer {
      if isHoldingWriteLock {
        isHoldingWriteLock = false
        rollBack()
      }
    }
    return try body()
  }

  private func inTransaction<Result>(
    begin: String,
    _ body: () throws(NotesStorageError) -> Result
  ) throws(NotesStorageError) -> Result {
    if isHoldingWriteLock {
      // Inside holdingWriteLock: a read sees the held transaction's snapshot; a write is
      // the held transaction's body (begun already) and ends it.
      guard begin == "BEGIN IMMEDIATE" else { return try body() }
      isHoldingWriteLock = false
    } else {
      try run(begin)
    }
    do throws(NotesStorageError) {
      let result = try body()
      try run("COMMIT")
      return result
    } catch {
      rollBack()
      throw error
    }
  }

  private func rollBack() {
    guard !isAutocommit, let database else { return }
    // Not a cached statement: ROLLBACK must work even if preparing statements fails.
    sqlite3_exec(database, "ROLLBACK", nil, nil, nil)
  }

  // MARK: Errors

  /// The error for a failed SQLite call that returned `code`.
  func error(_ code: Int32) -> NotesStorageError {
    // SQLite keeps the errno behind an error only for some of them (not for a failed
    // commit); the thread's errno, read before anything else can fail, still names it.
    let recent = errno
    guard let database else { return .closed }
    return Self.error(
      code, message: String(cString: sqlite3_errmsg(database)),
      systemError: sqlite3_system_errno(database), recentError: recent, path: path)
  }

  /// The error for an SQLite `code` with SQLite's `message` and the `errno` of the system
  /// call behind it (0 for none), on the database at `path`.
  ///
  /// `recentError`, the thread's `errno` just after the call, may be older than the call:
  /// it only helps tell a full disk, never gives a reason.
  static func error(
    _ code: Int32, message: String, systemError: Int32, recentError: Int32 = 0, path: String
  ) -> NotesStorageError {
    let full = [systemError, recentError].contains { $0 == ENOSPC || $0 == EDQUOT }
    switch code & 0xFF {
    case SQLITE_NOTADB, SQLITE_CORRUPT: return .notADatabase(path: path)
    case SQLITE_READONLY:
      let reason =
        code == SQLITE_READONLY | 4 << 8  // SQLITE_READONLY_DBMOVED
        ? "the file was moved or deleted while it was open"
        : "it is open read-only, as this user may not write the file or its folder"
      return .unwritableLocation(path: path, reason: reason)
    case SQLITE_FULL: return .diskFull(path: path)
    case SQLITE_IOERR where full || DiskSpace.isFull(systemError: systemError, near: path):
      return .diskFull(path: path)
    case SQLITE_IOERR:
      let cause = systemError == 0 ? message : String(cString: strerror(systemError))
      return .ioFailure(path: path, reason: "\(cause), SQLite code \(code)")
    case SQLITE_PERM: return .permissionDenied(path: path)
    case SQLITE_CANTOPEN where systemError == EACCES: return .permissionDenied(path: path)
    case SQLITE_CANTOPEN: return .cannotOpen(path: path, reason: message)
    default: return .sqlite(code: code, message: message)
    }
  }
}

/// What identifies a file's contents without reading them: its inode, size and times.
private struct FileIdentity: Equatable {
  let device: UInt64
  let inode: UInt64
  let size: Int64
  let modified: [Int]
  let changed: [Int]

  /// The identity of the file at `path`, or `nil` if it cannot be examined.
  init?(_ path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    #if canImport(Darwin)
      modified = [info.st_mtimespec.tv_sec, info.st_mtimespec.tv_nsec].map { Int($0) }
      changed = [info.st_ctimespec.tv_sec, info.st_ctimespec.tv_nsec].map { Int($0) }
    #else
      modified = [info.st_mtim.tv_sec, info.st_mtim.tv_nsec].map { Int($0) }
      changed = [info.st_ctim.tv_sec, info.st_ctim.tv_nsec].map { Int($0) }
    #endif
  }
}

extension String {
  /// The string with zeros before it, to at least `count` characters.
  fileprivate func leftPadded(to count: Int) -> String {
    String(repeating: "0", count: max(0, count - self.count)) + self
  }
}

/// Runs `body` with C copies of `strings`, valid only during the call.
private func withCStrings<Result>(
  _ strings: [String], _ body: (UnsafeMutableBufferPointer<UnsafePointer<CChar>?>) -> Result
) -> Result {
  let copies = strings.map { strdup($0) }
  defer { for copy in copies { free(copy) } }
  var pointers = copies.map { UnsafePointer($0) }
  return pointers.withUnsafeMutableBufferPointer { body($0) }
}
