// FileKind: what a path names (folder, regular file, link) and a file's bytes, read with
// the system's own calls, for walking folders of many small files quickly.
//
// Guarantees
// - `FileKind(of:)` follows links (stat), `FileKind(linkAt:)` does not (lstat); a path
//   that cannot be examined is neither a folder, nor a file, nor a link.
// - `contents(of:)` returns every byte of the file or throws with the system's reason.

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The kind of file a path names, and its modification time.
struct FileKind {
  /// The file's mode bits, or `nil` when it cannot be examined.
  private let mode: mode_t?
  /// When the file was last modified, to the nanosecond.
  let modified: Date?

  /// What `path` names, following a link.
  init(of path: String) { self.init(path, followingLinks: true) }

  /// What `path` itself is, without following a link.
  init(linkAt path: String) { self.init(path, followingLinks: false) }

  private init(_ path: String, followingLinks: Bool) {
    var info = stat()
    guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else {
      mode = nil
      modified = nil
      return
    }
    mode = info.st_mode
    #if canImport(Darwin)
      let time = info.st_mtimespec
    #else
      let time = info.st_mtim
    #endif
    modified = Date(
      timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000)
  }

  /// Whether it is a folder.
  var isFolder: Bool { mode.map { $0 & S_IFMT == S_IFDIR } ?? false }
  /// Whether it is a regular file.
  var isRegularFile: Bool { mode.map { $0 & S_IFMT == S_IFREG } ?? false }
  /// Whether it is a symbolic link (only from ``init(linkAt:)``).
  var isLink: Bool { mode.map { $0 & S_IFMT == S_IFLNK } ?? false }

  /// A read that failed, with the system's reason.
  struct ReadFailure: Error {
    /// The reason, such as "Permission denied".
    let description: String
  }

  /// Every byte of the file at `path`.
  ///
  /// - Throws: ``ReadFailure`` if it cannot be opened or read.
  static func contents(of path: String) throws(ReadFailure) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw ReadFailure(description: reason()) }
    defer { close(descriptor) }
    var info = stat()
    var bytes: [UInt8] = []
    var capacity = fstat(descriptor, &info) == 0 ? max(Int(info.st_size), 0) + 1 : 4096
    while true {
      if bytes.count == capacity { capacity *= 2 }
      let start = bytes.count
      bytes.append(contentsOf: repeatElement(0, count: capacity - start))
      let count = bytes.withUnsafeMutableBytes { buffer in
        read(descriptor, buffer.baseAddress! + start, capacity - start)
      }
      let error = count < 0 ? errno : 0
      bytes.removeLast(capacity - start - max(count, 0))
      if count < 0 {
        if error == EINTR { continue }
        throw ReadFailure(description: String(cString: strerror(error)))
      }
      if count == 0 { return bytes }
    }
  }

  private static func reason() -> String { String(cString: strerror(errno)) }
}
