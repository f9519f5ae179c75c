import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The kind of file a path names, and its modification time.
///
/// What a path names (folder, regular file, link) and a file's bytes, read with the system's own
/// calls, for walking folders of many small files quickly.
///
/// ## Guarantees
///
/// - `FileKind(of:)` follows links (stat), `FileKind(linkAt:)` does not (lstat); a path
///   that cannot be examined is neither a folder, nor a file, nor a link.
/// - `contents(of:)` returns every byte of a regular file or throws with the system's
///   reason. It never follows a link in the last part of the path and never waits on a
///   pipe or a device: what it opens must be a regular file, so a file swapped for a link
///   or a pipe after it was examined is refused, not read.
/// - `names(inFolder:)` lists a folder's entries (without `.` and `..`), never following a
///   link in the last part of its path.
/// - `resolved(_:)` is the path with every link in it followed (realpath), or why it
///   cannot be followed (a missing target, a loop).
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

  /// Every byte of the regular file at `path`, whose last part must not be a link.
  ///
  /// Opened without following a link and without blocking, then checked to be a regular
  /// file: what was examined as a file cannot be swapped for a link or a pipe unseen.
  ///
  /// - Throws: ``ReadFailure`` if it cannot be opened or read, or is not a regular file.
  static func contents(of path: String) throws(ReadFailure) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard descriptor >= 0 else {
      if errno == ELOOP { throw ReadFailure(description: "it is a link") }
      throw ReadFailure(description: reason())
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw ReadFailure(description: reason()) }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw ReadFailure(description: "it is not a regular file")
    }
    var bytes: [UInt8] = []
    var capacity = max(Int(info.st_size), 0) + 1
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

  /// The names of the entries of the folder at `path`, in no particular order.
  ///
  /// - Throws: ``ReadFailure`` if it cannot be opened (a link in its last part included)
  ///   or read.
  static func names(inFolder path: String) throws(ReadFailure) -> [String] {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { throw ReadFailure(description: reason()) }
    guard let folder = fdopendir(descriptor) else {
      let failure = ReadFailure(description: reason())
      close(descriptor)
      throw failure
    }
    defer { closedir(folder) }
    var names: [String] = []
    while true {
      errno = 0
      guard let entry = readdir(folder) else {
        if errno != 0 { throw ReadFailure(description: reason()) }
        return names
      }
      let name = withUnsafePointer(to: entry.pointee.d_name) { tuple in
        tuple.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
      }
      if name != ".", name != ".." { names.append(name) }
    }
  }

  /// Where `path` leads with every link in it followed, or why it leads nowhere.
  ///
  /// - Parameter path: A path, such as that of a link.
  /// - Returns: The absolute path with no link, `.` or `..` in it, or the `errno` of the
  ///   failure: `ENOENT` for a missing target, `ELOOP` for links that loop.
  static func resolved(_ path: String) -> Result<String, ResolveFailure> {
    guard let pointer = realpath(path, nil) else { return .failure(ResolveFailure(code: errno)) }
    defer { free(pointer) }
    return .success(String(cString: pointer))
  }

  /// Why a path could not be resolved: the `errno` of `realpath`.
  struct ResolveFailure: Error {
    /// The `errno` value.
    let code: Int32
  }

  private static func reason() -> String { String(cString: strerror(errno)) }
}
