import CPostgres
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// libpq's password file.
///
/// `notes sync setup` puts a password there instead of in the library.
///
/// ```swift
/// let connection = try PostgresConnection(settings: settings)   // with the password
/// let path = try PasswordFile.store(settings.password!, for: connection, settings: settings)
/// ```
///
/// ## Guarantees
///
/// - The file is the one libpq reads for the connection: the `passfile` setting, else
///   `PGPASSFILE`, else `.pgpass` in the home folder (`HOME`, else the user's entry in the
///   password database), as libpq finds it.
/// - Its line for a server names exactly what libpq matches: the host as libpq compares it
///   (`localhost` for the default Unix socket), the port, the database and the user of the
///   connection that was made, with `:` and `\` escaped.
/// - Written whole into a new file (mode 0600, made with `mkstemp`) beside it, then renamed
///   over it: a reader sees the old file or the new one, never half of one, and the file
///   is never readable by anyone else (libpq ignores a password file others can read). A
///   line for the same server is replaced; every other line is kept as it was.
public enum PasswordFile {
  /// The password file libpq reads for `settings`.
  ///
  /// - Parameter settings: A connection's settings.
  /// - Returns: The file's path.
  public static func path(for settings: ConnectionSettings) -> String {
    if let file = settings.effectiveValue("passfile"), !file.isEmpty { return file }
    var home = ProcessInfo.processInfo.environment["HOME"] ?? ""
    if home.isEmpty, let entry = getpwuid(geteuid()), let folder = entry.pointee.pw_dir {
      home = String(cString: folder)
    }
    return home + "/.pgpass"
  }

  /// The line libpq matches for the server `connection` reached, holding `password`.
  ///
  /// - Parameters:
  ///   - password: The password.
  ///   - connection: A connection that was made with these settings.
  /// - Returns: `host:port:database:user:password`, each field escaped.
  /// - Throws: ``PostgresError`` when the connection is closed.
  public static func line(password: String, for connection: PostgresConnection) throws -> String {
    let server = try connection.passwordFileKey()
    return (server + [password]).map(escaped).joined(separator: ":")
  }

  /// Stores `password` for the server `connection` reached, in the file libpq reads for
  /// `settings`.
  ///
  /// - Parameters:
  ///   - password: The password; one line.
  ///   - connection: The connection made with `settings` (and the password).
  ///   - settings: Its settings.
  /// - Returns: The file's path.
  /// - Throws: ``PostgresError`` saying what could not be written; the file is then as
  ///   it was.
  @discardableResult
  public static func store(
    _ password: String, for connection: PostgresConnection, settings: ConnectionSettings
  ) throws -> String {
    guard !password.contains(where: \.isNewline) else {
      throw PostgresError("a password in the password file must be one line")
    }
    let path = path(for: settings)
    let key = try connection.passwordFileKey()
    var lines: [String] = []
    if let existing = FileManager.default.contents(atPath: path) {
      lines = String(decoding: existing, as: UTF8.self)
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      if lines.last == "" { lines.removeLast() }
    }
    lines.removeAll { fields(of: $0).prefix(4).elementsEqual(key) }
    lines.append(try line(password: password, for: connection))
    try replace(path, with: Data((lines.joined(separator: "\n") + "\n").utf8))
    return path
  }

  /// `text` with `:` and `\` escaped by a backslash, as the file's fields are.
  static func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      if character == ":" || character == "\\" { result.append("\\") }
      result.append(character)
    }
    return result
  }

  /// The fields of one line, unescaped.
  static func fields(of line: String) -> [String] {
    var fields: [String] = []
    var current = ""
    var escaping = false
    for character in line {
      if escaping {
        current.append(character)
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else if character == ":", fields.count < 4 {
        fields.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    fields.append(current)
    return fields
  }

  /// Writes `data` to a new private file beside `path` and renames it over `path`.
  private static func replace(_ path: String, with data: Data) throws {
    let folder = (path as NSString).deletingLastPathComponent
    var template = Array(
      ((folder.isEmpty ? "." : folder) + "/.pgpass-notes-XXXXXX").utf8CString)
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else { throw failure("cannot create a file beside \(path)") }
    let temporary = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var written = false
    defer { if !written { unlink(temporary) } }
    let complete = data.withUnsafeBytes { buffer -> Bool in
      var offset = 0
      while offset < buffer.count {
        let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return false }
        offset += count
      }
      return true
    }
    let synced = fchmod(descriptor, 0o600) == 0 && fsync(descriptor) == 0
    close(descriptor)
    guard complete, synced else { throw failure("cannot write \(temporary)") }
    guard rename(temporary, path) == 0 else { throw failure("cannot replace \(path)") }
    written = true
  }

  private static func failure(_ what: String) -> PostgresError {
    PostgresError("\(what): \(String(cString: strerror(errno)))")
  }
}

extension PostgresConnection {
  /// What libpq matches a password file line against for this connection: host (as
  /// libpq compares it), port, database and user.
  func passwordFileKey() throws(PostgresError) -> [String] {
    guard let handle else { throw PostgresError("the connection is closed") }
    func text(_ value: UnsafeMutablePointer<CChar>?) -> String {
      value.map { String(cString: $0) } ?? ""
    }
    var host = text(PQhost(handle))
    // libpq compares the default socket folder as "localhost".
    if host.isEmpty || host == Self.defaultSocketFolder { host = "localhost" }
    var port = text(PQport(handle))
    if port.isEmpty { port = "5432" }
    return [host, port, text(PQdb(handle)), text(PQuser(handle))]
  }

  /// The Unix socket folder libpq uses when no host is given, as this libpq was built.
  static let defaultSocketFolder: String = {
    // A connection started without a host names the default folder before it connects;
    // it is abandoned at once.
    guard let probe = PQconnectStart("host='' hostaddr='' port=1 dbname=probe") else {
      return ""
    }
    defer { PQfinish(probe) }
    return PQhost(probe).map { String(cString: $0) } ?? ""
  }()
}
