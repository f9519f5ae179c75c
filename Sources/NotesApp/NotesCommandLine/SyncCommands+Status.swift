import Foundation
import NotesCore
import NotesFiles
import NotesServer
import NotesStorage

extension SyncCommands {
  /// What `sync status --json` prints; the server's connection string without its password.
  private struct Status: Encodable {
    var setUp: Bool
    var server: String?
    var device: String
    var pending: Int
    var lastSynced: String?
    var notices: [String]
    var keptAside: [KeptAside]
  }

  /// One version kept aside, in `sync status --json`.
  private struct KeptAside: Encodable {
    var kind: String
    var uid: String
    var seq: Int64
    var changeID: String
    var reasons: [String]
    var keptAt: String
    var acknowledged: Bool
  }

  /// Prints `notes sync status [--json]`: the server, this device, what is pending, the last sync,
  /// the notices and the versions kept aside.
  ///
  /// ## Guarantees
  ///
  /// - The server's connection string is printed without its password (`password=***`), even
  ///   one stored by an older version of the program with its password in it.
  /// - Every version kept aside is listed with its reasons until the server holds a valid
  ///   version of its entity; `notes sync acknowledge` marks them read (unread ones are
  ///   listed first and counted in the app's status bar).
  /// - Text from the server (an id, a reason quoting one) is printed with its control
  ///   characters replaced, so it cannot drive the terminal.
  static func status(path: String, json: Bool, io: CommandIO) throws {
    let store = try LibrarySyncStore(path: path)
    defer { store.close() }
    let dates = ISO8601DateFormatter()
    let kept = try store.keptAside().sorted { !$0.isAcknowledged && $1.isAcknowledged }
    if json {
      let server = try store.server()
      let status = Status(
        setUp: server != nil, server: server.map(printable), device: store.deviceID,
        pending: try store.pendingCount(),
        lastSynced: try store.lastSynced().map { dates.string(from: $0) },
        notices: try store.notices(),
        keptAside: kept.map {
          KeptAside(
            kind: $0.version.kind.rawValue, uid: $0.version.uid, seq: $0.version.seq,
            changeID: $0.version.changeID, reasons: $0.version.reasons,
            keptAt: dates.string(from: $0.keptAt), acknowledged: $0.isAcknowledged)
        })
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      io.write(String(decoding: try encoder.encode(status), as: UTF8.self) + "\n")
      return
    }
    guard let server = try store.server() else {
      io.write("sync is not set up for this library: run `notes sync setup URL`\n")
      return
    }
    io.write("server: \(DisplayText.line(printable(server)))\n")
    io.write("device: \(store.deviceID)\n")
    io.write("pending: \(Counts.phrase(try store.pendingCount(), "change"))\n")
    if let date = try store.lastSynced() {
      io.write("last synced: \(dates.string(from: date))\n")
    } else {
      io.write("last synced: never\n")
    }
    let notices = try store.notices()
    for notice in notices { io.write("notice: \(notice)\n") }
    for version in kept {
      let read = version.isAcknowledged ? " (read)" : ""
      io.write("kept aside\(read): \(DisplayText.line(version.version.summary))\n")
    }
    if !notices.isEmpty || kept.contains(where: { !$0.isAcknowledged }) {
      io.write("(`notes sync acknowledge` marks them read)\n")
    }
  }

  /// `url` as a connection string without its password: `password=***` in its place.
  static func printable(_ url: String) -> String {
    (try? ConnectionSettings(url).description) ?? "(a connection string libpq cannot read)"
  }
}
