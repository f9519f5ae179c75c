internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Pre-flight checks on a database path.
///
/// They run before SQLite touches the path.
///
/// ## Guarantees
///
/// - Nothing is created unless the check passed: a missing folder is created only after
///   its nearest existing ancestor was found to be a writable folder.
/// - An existing file is never opened for writing if it or its folder is not writable
///   (SQLite needs to create `-wal` and `-shm` files beside it); such a path is reported
///   as `.unwritableLocation` and left alone. A file this user may not read, or cannot
///   reach (a folder on the path forbids it), is `.permissionDenied`, whatever is asked.
/// - A path that names a folder is reported as `.cannotOpen`.
/// - Before a writable library is opened, its companions are made writable again if a
///   read-only reader left them otherwise (see `PrivateFiles.repairCompanions`).
/// - What it creates is private (see `PrivateFiles`): each missing folder with mode 0700,
///   and a new library as an empty file with mode 0600, before SQLite opens it.
/// - Access is judged for the process's effective user, as the kernel will judge the
///   opens that follow; a check is a forecast, and the open itself still reports what the
///   system says.
enum FileLocation {
  /// Checks `path` and creates its missing parent folders (mode 0700) and, when it does
  /// not exist, the file itself (empty, mode 0600).
  ///
  /// - Parameter path: The database file's path.
  /// - Returns: Whether the file existed before.
  /// - Throws: ``NotesStorageError/unwritableLocation(path:reason:)`` or
  ///   ``NotesStorageError/cannotOpen(path:reason:)``; nothing was created.
  static func prepare(_ path: String) throws(NotesStorageError) -> Bool {
    let files = FileManager.default
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    var isFolder: ObjCBool = false
    if try exists(path) {
      try checkReadable(path)
      guard isAllowed(path, W_OK) else {
        throw .unwritableLocation(path: path, reason: "the file is read-only")
      }
      guard isAllowed(folder, W_OK | X_OK) else {
        throw .unwritableLocation(
          path: path,
          reason: "its folder \(folder) is read-only (SQLite needs to write "
            + "its journal files there)")
      }
      do throws(PrivateFiles.Failure) {
        try PrivateFiles.repairCompanions(of: path)
      } catch {
        throw .unwritableLocation(
          path: path, reason: "cannot make its -wal or -shm file writable again: \(error)")
      }
      return true
    }
    var ancestor = url.deletingLastPathComponent()
    var missingFolders: [String] = []
    while !files.fileExists(atPath: ancestor.path, isDirectory: &isFolder) {
      missingFolders.append(ancestor.path)
      let parent = ancestor.deletingLastPathComponent()
      if parent.path == ancestor.path { break }
      ancestor = parent
    }
    guard isFolder.boolValue else {
      throw .unwritableLocation(
        path: path, reason: "\(ancestor.path) is a file, so no folder can be created there")
    }
    guard files.isWritableFile(atPath: ancestor.path) else {
      throw .unwritableLocation(path: path, reason: "the folder \(ancestor.path) is read-only")
    }
    for missing in missingFolders.reversed() {
      do throws(PrivateFiles.Failure) {
        try PrivateFiles.createFolder(missing)
      } catch {
        throw .unwritableLocation(
          path: path, reason: "cannot create the folder \(missing): \(error)")
      }
    }
    do throws(PrivateFiles.Failure) {
      try PrivateFiles.createFile(path)
    } catch {
      throw .cannotOpen(path: path, reason: "cannot create the file: \(error)")
    }
    return false
  }

  /// Whether a library opened at `path` with `access` is opened read-only.
  ///
  /// `.readWriteIfAllowed` reads only when this user may not write the file or its
  /// folder, or, for a missing file, may not create it.
  static func opensReadOnly(
    _ path: String, access: NotesDatabase.Access
  ) throws(NotesStorageError) -> Bool {
    switch access {
    case .readWrite: return false
    case .readOnly: return true
    case .readWriteIfAllowed:
      if try exists(path) { return !isWritable(path) }
      var ancestor = URL(fileURLWithPath: path).deletingLastPathComponent()
      while !FileManager.default.fileExists(atPath: ancestor.path) {
        let parent = ancestor.deletingLastPathComponent()
        if parent.path == ancestor.path { break }
        ancestor = parent
      }
      return !isAllowed(ancestor.path, W_OK | X_OK)
    }
  }

  /// Whether this user may write the file at `path` and create files beside it.
  static func isWritable(_ path: String) -> Bool {
    isAllowed(path, W_OK)
      && isAllowed(URL(fileURLWithPath: path).deletingLastPathComponent().path, W_OK | X_OK)
  }

  /// Throws unless the existing file at `path` is a file this user may read.
  ///
  /// - Throws: ``NotesStorageError/missing(path:)``,
  ///   ``NotesStorageError/permissionDenied(path:)``, or
  ///   ``NotesStorageError/cannotOpen(path:reason:)`` for a folder.
  static func checkReadable(_ path: String) throws(NotesStorageError) {
    var info = stat()
    guard stat(path, &info) == 0 else {
      let code = errno
      switch code {
      case EACCES: throw .permissionDenied(path: path)
      case ENOENT, ENOTDIR: throw .missing(path: path)
      default: throw .cannotOpen(path: path, reason: String(cString: strerror(code)))
      }
    }
    guard info.st_mode & S_IFMT != S_IFDIR else {
      throw .cannotOpen(path: path, reason: "it is a folder, not a file")
    }
    guard isAllowed(path, R_OK) else { throw .permissionDenied(path: path) }
  }

  /// Whether something is at `path`; a path this user may not reach throws.
  private static func exists(_ path: String) throws(NotesStorageError) -> Bool {
    var info = stat()
    if stat(path, &info) == 0 { return true }
    if errno == EACCES { throw .permissionDenied(path: path) }
    return false
  }

  /// Whether the effective user may access `path` in `mode` (`R_OK`, `W_OK`, `X_OK`).
  private static func isAllowed(_ path: String, _ mode: Int32) -> Bool {
    // AT_EACCESS: judged for the effective user, as opening the file will be.
    faccessat(AT_FDCWD, path, mode, 0x200) == 0
  }

  /// Removes a database file this code created, with its journal files.
  static func removeCreatedFile(_ path: String) {
    for suffix in [""] + PrivateFiles.companionSuffixes {
      try? FileManager.default.removeItem(atPath: path + suffix)
    }
  }
}
