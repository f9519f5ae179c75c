internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Creating and keeping the library's files private to their owner.
///
/// The library is readable by its owner only, whatever the umask.
///
/// ## Guarantees
///
/// - A folder this code creates for the library gets mode 0700; a file it creates, 0600.
///   The mode is set with chmod after creating, so no umask can widen it (or take the
///   owner's own bits away). Folders that already exist are the user's and keep their
///   mode.
/// - The library file is created (empty, 0600) before SQLite opens it, so SQLite gives the
///   `-wal`, `-shm` and `-journal` files it creates beside it the same mode: SQLite copies
///   the database file's mode to its companions, and sets it with fchmod, whatever the
///   umask.
/// - An existing library and its existing companions keep a stricter mode and lose every
///   group and other bit: their new mode is the old one masked with 0600. Nothing is
///   changed on a file that is already private.
/// - A companion of this user's that this user may not write, beside a library it may
///   write, gets the library's mode back before SQLite opens it (`repairCompanions`): a
///   read-only reader (an `sqlite3 -readonly`, an older `notes`) creates missing
///   companions with the read-only mode the library had then, and one left so would stop
///   every later writer.
enum PrivateFiles {
  /// The mode of a folder created for the library: the owner only.
  static let folderMode: mode_t = 0o700
  /// The mode of the library and its companions: the owner reads and writes.
  static let fileMode: mode_t = 0o600
  /// The files SQLite keeps beside a database, by suffix.
  static let companionSuffixes = ["-wal", "-shm", "-journal"]

  /// Creates `folder` with mode 0700.
  ///
  /// - Parameter folder: A folder whose parent exists.
  /// - Throws: The `errno` of a failed `mkdir` or `chmod`, as a reason.
  static func createFolder(_ folder: String) throws(Failure) {
    guard mkdir(folder, folderMode) == 0 else { throw Failure(errno) }
    guard chmod(folder, folderMode) == 0 else { throw Failure(errno) }
  }

  /// Creates the empty file `path` with mode 0600; fails if it exists.
  ///
  /// - Parameter path: The new file's path.
  /// - Throws: The `errno` of the failed call, as a reason.
  static func createFile(_ path: String) throws(Failure) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
    guard descriptor >= 0 else { throw Failure(errno) }
    defer { close(descriptor) }
    guard fchmod(descriptor, fileMode) == 0 else { throw Failure(errno) }
  }

  /// Takes every group and other bit away from the library at `path` and its companions.
  ///
  /// Files that do not exist, and files already private, are left alone.
  ///
  /// - Parameter path: The library's path.
  /// - Throws: The `errno` of a failed `chmod`, as a reason.
  static func restrict(_ path: String) throws(Failure) {
    for file in [path] + companionSuffixes.map({ path + $0 }) {
      var status = stat()
      guard stat(file, &status) == 0 else { continue }
      let mode = status.st_mode & 0o7777
      guard mode & ~fileMode != 0 else { continue }
      guard chmod(file, mode & fileMode) == 0 else { throw Failure(errno) }
    }
  }

  /// Gives each companion of the library at `path` that is this user's but lacks the
  /// owner's write permission the library's own mode (without group and other bits).
  ///
  /// Call once the library itself was found writable.
  ///
  /// - Parameter path: The library's path.
  /// - Throws: The `errno` of a failed `chmod`, as a reason.
  static func repairCompanions(of path: String) throws(Failure) {
    guard let libraryMode = mode(of: path), libraryMode & S_IWUSR != 0 else { return }
    for file in companionSuffixes.map({ path + $0 }) {
      var status = stat()
      guard lstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
        status.st_uid == geteuid(), status.st_mode & S_IWUSR == 0
      else { continue }
      guard chmod(file, libraryMode & fileMode) == 0 else { throw Failure(errno) }
    }
  }

  /// The permission bits of the file or folder at `path`, if it exists.
  ///
  /// - Parameter path: A path.
  /// - Returns: The mode's permission bits, such as `0o600`.
  static func mode(of path: String) -> mode_t? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return status.st_mode & 0o7777
  }

  /// A failed system call, with the system's description of its `errno`.
  struct Failure: Error, CustomStringConvertible {
    /// The `errno` value.
    let code: Int32

    init(_ code: Int32) { self.code = code }

    var description: String { String(cString: strerror(code)) }
  }
}
