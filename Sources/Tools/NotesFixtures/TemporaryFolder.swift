// TemporaryFolder: a fresh folder for one test, shared by every Notes test target.

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh folder under /tmp, removed with everything in it by ``remove()``.
///
/// ## Guarantees
/// - Created with `mkdtemp`, so no two folders collide and only this user can enter it.
/// - Short paths under /tmp, whatever `TMPDIR` says: a tmux socket path inside it must fit
///   in 108 bytes.
/// - ``remove()`` makes the folder writable again first, so a test that write-protected it
///   still leaves nothing behind.
public struct TemporaryFolder: Sendable {
  /// The folder's path.
  public let path: String

  /// Creates the folder.
  ///
  /// - Parameter prefix: The start of the folder's name, to tell tests' folders apart.
  /// - Throws: `POSIXError` when it cannot be created.
  public init(prefix: String = "notes-tests") throws {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw POSIXError(.EACCES) }
    path = String(cString: made)
  }

  /// The path of `name` inside the folder.
  ///
  /// - Parameter name: A file name.
  /// - Returns: The path.
  public func file(_ name: String) -> String { path + "/" + name }

  /// The text of a file in the folder, or `nil` if it cannot be read.
  ///
  /// - Parameter name: A file name.
  /// - Returns: The file's text.
  public func text(of name: String) -> String? {
    FileManager.default.contents(atPath: file(name)).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The names of the files in the folder, sorted.
  ///
  /// - Returns: The names.
  /// - Throws: What listing the folder throws.
  public func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }

  /// Makes the folder writable again and deletes it and everything in it.
  public func remove() {
    try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    try? FileManager.default.removeItem(atPath: path)
  }
}
