import Foundation
import NotesTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The built `notes` program, run in `folder` as a user that file permissions apply to.
///
/// The built `notes` program run as a user that file permissions apply to, for the tests of
/// read-only, unreadable and unwritable files.
///
/// ## Guarantees
///
/// - Root reads and writes every file whatever its mode, so under root (as in CI) the
///   program runs as `nobody` through `setpriv`, with no supplementary group; under any
///   other user it runs as that user.
/// - Nothing is skipped quietly: if the mechanism is missing (no `setpriv` or `timeout`, no
///   `nobody` account), or if a probe shows that the user can still write a read-only file
///   or cannot run the program, creating it throws an error that says so, and the test
///   fails with it.
/// - Every run is bounded: `timeout` ends the program after `limit`, and the result then
///   has status 124 (or 137).
struct UnprivilegedNotes {
  /// Why permissions cannot be tested on this machine.
  struct Unavailable: Error, CustomStringConvertible {
    let description: String
  }

  /// The longest a run may take.
  static let limit = 120

  /// The folder the tests' files are in; the user can reach it.
  let folder: String
  /// The user's ids: the owner a test gives the files the user should own.
  let uid: uid_t
  let gid: gid_t
  /// The program and the arguments that run the next one as the user, within the limit.
  private let prefix: [String]
  /// The `notes` program, where the user can run it.
  private let program: String

  /// Prepares `folder` (made reachable by everyone) and checks that permissions bite.
  ///
  /// - Throws: ``Unavailable`` saying what is missing or what the probe found.
  init(folder: String) throws {
    self.folder = folder
    guard chmod(folder, 0o755) == 0 else {
      throw Unavailable(description: "cannot open \(folder) to other users")
    }
    guard let timeout = Programs.onPath("timeout") else {
      throw Unavailable(description: "`timeout` (coreutils) is missing: runs cannot be bounded")
    }
    let bounded = [timeout, "--kill-after=10", "\(Self.limit)"]
    if getuid() == 0 {
      guard let setpriv = Programs.onPath("setpriv") else {
        throw Unavailable(
          description: "the tests run as root and `setpriv` (util-linux) is missing, so "
            + "notes cannot run as a user that file permissions apply to")
      }
      guard let account = getpwnam("nobody") else {
        throw Unavailable(description: "the tests run as root and there is no user nobody")
      }
      uid = account.pointee.pw_uid
      gid = account.pointee.pw_gid
      prefix =
        bounded + [setpriv, "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"]
    } else {
      uid = getuid()
      gid = getgid()
      prefix = bounded
    }
    guard let built = Programs.built("notes") else {
      throw Unavailable(description: "the notes program is not built")
    }
    program = try Self.runnable(built, in: folder, prefix: prefix)
    try checkPermissionsApply()
  }

  /// `built`, or a copy of it in `folder` when the user cannot run it where it is (a
  /// build folder private to root).
  private static func runnable(
    _ built: String, in folder: String, prefix: [String]
  ) throws -> String {
    let environment = Programs.environment(home: folder)
    let run = { (program: String) in
      try Programs.run(
        prefix[0], Array(prefix.dropFirst()) + [program, "--version"], environment: environment,
        folder: folder)
    }
    if try run(built).status == 0 { return built }
    let copy = folder + "/notes-program"
    try? FileManager.default.removeItem(atPath: copy)
    guard writeClosedOnExec(try Data(contentsOf: URL(fileURLWithPath: built)), to: copy),
      try run(copy).status == 0
    else {
      throw Unavailable(description: "the user cannot run the notes program, even copied")
    }
    return copy
  }

  /// Writes `data` to a new file at `path`, mode 0755, through a descriptor closed on exec.
  ///
  /// A program is copied this way, not with `FileManager`: a child process another test
  /// starts while the copy is written would otherwise inherit the descriptor open for
  /// writing and keep it for its whole life, and executing a file someone holds open for
  /// writing fails ("Text file busy").
  private static func writeClosedOnExec(_ data: Data, to path: String) -> Bool {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return false }
        offset += written
      }
      return fchmod(descriptor, 0o755) == 0
    }
  }

  /// Throws unless the user is refused writing a file of its own made read-only.
  private func checkPermissionsApply() throws {
    let probe = folder + "/permission-probe"
    try Data("probe".utf8).write(to: URL(fileURLWithPath: probe))
    defer { try? FileManager.default.removeItem(atPath: probe) }
    try own(probe)
    guard chmod(probe, 0o444) == 0, let test = Programs.onPath("test") else {
      throw Unavailable(description: "cannot make the permission probe")
    }
    let result = try Programs.run(
      prefix[0], Array(prefix.dropFirst()) + [test, "-w", probe],
      environment: Programs.environment(home: folder), folder: folder)
    guard result.status == 1 else {
      throw Unavailable(
        description: "the user the tests run notes as can write a read-only file "
          + "(test -w: status \(result.status)): permissions do not apply to it")
    }
  }

  /// Gives `path`, and everything in it, to the user.
  func own(_ path: String) throws {
    guard getuid() == 0 else { return }
    var paths = [path]
    if let enumerator = FileManager.default.enumerator(atPath: path) {
      paths += enumerator.compactMap { $0 as? String }.map { path + "/" + $0 }
    }
    for path in paths where lchown(path, uid, gid) != 0 {
      throw Unavailable(description: "cannot give \(path) to the user: errno \(errno)")
    }
  }

  /// Runs `notes arguments` as the user, with `folder` as its home.
  ///
  /// - Returns: How it ended and what it printed; status 124 if it ran out of time.
  func run(_ arguments: [String]) throws -> ProgramResult {
    try Programs.run(
      prefix[0], Array(prefix.dropFirst()) + [program] + arguments,
      environment: Programs.environment(home: folder), folder: folder)
  }
}
