// FileLocation: checks that a database path can be used before SQLite touches it.
//
// Guarantees
// - Nothing is created unless the check passed: a missing folder is created only after
//   its nearest existing ancestor was found to be a writable folder.
// - An existing file is never opened if it or its folder is not writable (SQLite needs to
//   create `-wal` and `-shm` files beside it); such a path is reported as
//   `.unwritableLocation` and left alone.
// - A path that names a folder is reported as `.cannotOpen`.

internal import Foundation

/// Pre-flight checks on a database path.
enum FileLocation {
  /// Checks `path` and creates its missing parent folders.
  ///
  /// - Parameter path: The database file's path.
  /// - Returns: Whether the file already exists.
  /// - Throws: ``NotesStorageError/unwritableLocation(path:reason:)`` or
  ///   ``NotesStorageError/cannotOpen(path:reason:)``; nothing was created.
  static func prepare(_ path: String) throws(NotesStorageError) -> Bool {
    let files = FileManager.default
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    var isFolder: ObjCBool = false
    if files.fileExists(atPath: path, isDirectory: &isFolder) {
      guard !isFolder.boolValue else {
        throw .cannotOpen(path: path, reason: "it is a folder, not a file")
      }
      guard files.isWritableFile(atPath: path) else {
        throw .unwritableLocation(path: path, reason: "the file is read-only")
      }
      guard files.isWritableFile(atPath: folder) else {
        throw .unwritableLocation(
          path: path,
          reason: "its folder \(folder) is read-only (SQLite needs to write "
            + "its journal files there)")
      }
      return true
    }
    var ancestor = url.deletingLastPathComponent()
    while !files.fileExists(atPath: ancestor.path, isDirectory: &isFolder) {
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
    do {
      try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw .unwritableLocation(
        path: path, reason: "cannot create the folder \(folder): \(error.localizedDescription)")
    }
    return false
  }

  /// Removes a database file this code created, with its journal files.
  static func removeCreatedFile(_ path: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
      try? FileManager.default.removeItem(atPath: path + suffix)
    }
  }
}
