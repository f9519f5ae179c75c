import Foundation

/// A fresh folder under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("NotesStorageTests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// The path of `name` inside the folder.
  func file(_ name: String) -> String { path + "/" + name }

  /// The names of the files in the folder, sorted.
  func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }

  /// Makes the folder writable again and deletes it.
  func remove() {
    try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    try? FileManager.default.removeItem(atPath: path)
  }
}
