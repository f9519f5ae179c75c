// SyncCommands: `notes sync setup URL`, `notes sync`, `notes sync status` and
// `notes sync acknowledge`.
//
// Guarantees
// - The URL is a libpq connection string; a password comes from the URL, `PGPASSWORD` or
//   `~/.pgpass`, as libpq finds it. It is stored in the library (mode 0600) and never
//   printed back with its password.
// - `setup` reaches the server and creates or upgrades its tables before storing it: a
//   server that cannot be reached exits 69 (EX_UNAVAILABLE), one with a newer schema
//   exits 1, and the library is unchanged.
// - `sync` prints what moved and every notice; it exits 69 with the reason when the server
//   cannot be reached or the connection drops, and everything pending stays pending for
//   the next try.
// - Without `setup`, `sync` and `status` say sync is not set up; nothing else changes.

import Foundation
import NotesServer
import NotesStorage
import NotesSync

/// The sync commands.
@MainActor
enum SyncCommands {
  static func run(
    _ command: SyncCommand, databasePath: String?, io: CommandIO
  ) throws(CommandFailure) {
    // Opening the library migrates it to the version sync needs.
    let session = try LibrarySession(databasePath: databasePath)
    let path = session.database.path
    session.close()
    do {
      switch command {
      case .setup(let url):
        try setUp(url: url, path: path, io: io)
      case .now:
        try syncNow(path: path, io: io)
      case .status(let json):
        try status(path: path, json: json, io: io)
      case .acknowledge:
        let store = try LibrarySyncStore(path: path)
        defer { store.close() }
        let count = try store.notices().count
        try store.acknowledgeNotices()
        io.write(count == 1 ? "1 notice marked read\n" : "\(count) notices marked read\n")
      }
    } catch let failure as CommandFailure {
      throw failure
    } catch let error as PostgresError where error.isUnavailable {
      throw CommandFailure(.unavailable, "\(error)")
    } catch {
      throw CommandFailure(.failure, "\(error)")
    }
  }

  private static func setUp(url: String, path: String, io: CommandIO) throws {
    let connection = try PostgresConnection(url: url)
    let outcome = try ServerSchema.prepare(connection)
    connection.close()
    let store = try LibrarySyncStore(path: path)
    defer { store.close() }
    try store.setServer(url)
    if outcome == .created {
      io.write("created the sync server's tables (schema \(ServerSchema.version))\n")
    }
    io.write(
      "this library now syncs with \(redacted(url)) as device \(store.deviceID);"
        + " run `notes sync` to sync\n")
  }

  private static func syncNow(path: String, io: CommandIO) throws {
    let engine: SyncEngine
    do {
      engine = try SyncEngine(libraryPath: path)
    } catch let error as SyncEngine.NotSetUp {
      throw CommandFailure(.failure, error.description)
    }
    defer { engine.close() }
    let report = try engine.sync()
    var line = "pushed \(count(report.pushed, "change")), pulled \(count(report.pulled, "change"))"
    if report.conflictCopies > 0 {
      line += ", saved \(count(report.conflictCopies, "conflict copy"))"
    }
    if report.pending > 0 { line += "; \(report.pending) still pending" }
    io.write(line + "\n")
    for notice in report.notices { io.write("notice: \(notice)\n") }
  }

  /// What `sync status --json` prints; the server's URL without its password.
  private struct Status: Encodable {
    var setUp: Bool
    var server: String?
    var device: String
    var pending: Int
    var lastSynced: String?
    var notices: [String]
  }

  private static func status(path: String, json: Bool, io: CommandIO) throws {
    let store = try LibrarySyncStore(path: path)
    defer { store.close() }
    if json {
      let server = try store.server()
      let status = Status(
        setUp: server != nil, server: server.map(redacted), device: store.deviceID,
        pending: try store.pendingCount(),
        lastSynced: try store.lastSynced().map { ISO8601DateFormatter().string(from: $0) },
        notices: try store.notices().map { "\($0)" })
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      io.write(String(decoding: try encoder.encode(status), as: UTF8.self) + "\n")
      return
    }
    guard let server = try store.server() else {
      io.write("sync is not set up for this library: run `notes sync setup URL`\n")
      return
    }
    io.write("server: \(redacted(server))\n")
    io.write("device: \(store.deviceID)\n")
    io.write("pending: \(count(try store.pendingCount(), "change"))\n")
    if let date = try store.lastSynced() {
      io.write("last synced: \(ISO8601DateFormatter().string(from: date))\n")
    } else {
      io.write("last synced: never\n")
    }
    let notices = try store.notices()
    for notice in notices { io.write("notice: \(notice)\n") }
    if !notices.isEmpty { io.write("(`notes sync acknowledge` marks them read)\n") }
  }

  private static func count(_ number: Int, _ noun: String) -> String {
    if number == 1 { return "1 \(noun)" }
    return "\(number) " + (noun.hasSuffix("y") ? noun.dropLast() + "ies" : noun + "s")
  }

  /// `url` without its password: `user:secret@` becomes `user:***@`, `password=secret`
  /// becomes `password=***`.
  static func redacted(_ url: String) -> String {
    var text = url
    if let scheme = text.range(of: "://"),
      let at = text[scheme.upperBound...].firstIndex(of: "@"),
      let colon = text[scheme.upperBound..<at].firstIndex(of: ":")
    {
      text.replaceSubrange(text.index(after: colon)..<at, with: "***")
    }
    var parts = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    for index in parts.indices where parts[index].lowercased().hasPrefix("password=") {
      parts[index] = "password=***"
    }
    text = parts.joined(separator: " ")
    if let range = text.range(of: "password=", options: .caseInsensitive), text.contains("?") {
      let end = text[range.upperBound...].firstIndex(of: "&") ?? text.endIndex
      text.replaceSubrange(range.upperBound..<end, with: "***")
    }
    return text
  }
}
