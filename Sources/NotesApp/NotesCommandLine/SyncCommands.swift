import Foundation
import NotesCore
import NotesFiles
import NotesServer
import NotesStorage
import NotesSync

/// The sync commands.
///
/// `notes sync setup URL`, `notes sync`, `notes sync status` and `notes sync acknowledge`.
///
/// ## Guarantees
///
/// - The URL is a libpq connection string for an account (`notes server add-account`); a
///   password comes from the URL, `PGPASSWORD` or the password file, as libpq finds it. A
///   server that is not on this machine is reached with TLS and a checked certificate, or
///   as the URL explicitly says (`ConnectionSettings`).
/// - `setup` reaches the server and checks it before storing anything: its schema must be
///   this program's, and the role an account — never a superuser or the tables' owner,
///   which row-level security does not hold back. A server that cannot be reached exits 69
///   (EX_UNAVAILABLE), any other refusal 1, and the library is unchanged.
/// - The password never reaches the library: a password in the URL goes to libpq's password
///   file (mode 0600), and the library stores the connection string without it. Every
///   message prints the connection string without its password.
/// - `setup` needs no password on the command line, where the process list and the shell's
///   history would show it: when the server asks for one that libpq cannot find, it is read
///   from the terminal without echo, or from standard input when that is not a terminal,
///   and goes to the password file like one given in the URL. A password in the URL still
///   works, with a warning.
/// - `sync` prints what moved, every notice and every version from the server it kept aside
///   (it broke the app's rules); it exits 69 with the reason when the server cannot be
///   reached or the connection drops, and everything pending stays pending for the next
///   try. `status` lists the versions kept aside until the server holds valid ones.
/// - Without `setup`, `sync` and `status` say sync is not set up; nothing else changes.
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
    } catch let error as NotesStorageError {
      throw CommandFailure(error)
    } catch let error as PostgresError where error.isUnavailable {
      throw CommandFailure(.unavailable, "\(error)")
    } catch {
      throw CommandFailure(.failure, "\(error)")
    }
  }

  private static func setUp(url: String, path: String, io: CommandIO) throws {
    var settings = try ServerCommands.settings(url)
    if settings.password != nil {
      io.writeError(
        "warning: a password in the URL shows in the process list and the shell's history;"
          + " leave it out and type it when asked\n")
    }
    // Connecting checks the schema and the account: a superuser or the tables' owner is
    // refused here, before anything is stored.
    let server: SyncServer
    do {
      server = try SyncServer(settings: settings)
    } catch let error as PostgresError where error.needsPassword && settings.password == nil {
      let user = settings.value("user") ?? "this account"
      settings = settings.setting(
        "password", to: try SecretPrompt.password(for: user, io: io, confirmed: false))
      server = try SyncServer(settings: settings)
    }
    defer { server.close() }
    let passwordFile = try server.storePassword(of: settings)
    let store = try LibrarySyncStore(path: path)
    defer { store.close() }
    // A copy of a library that syncs with another account has that device's id: it starts
    // over as a new device, or the server would refuse every push.
    let copied = try server.isRegisteredToAnotherAccount(device: store.deviceID)
    try store.setServer(settings.connectionString, startingOver: copied)
    if copied {
      io.write(
        "this library's device id belongs to another account on that server (the library was"
          + " copied from another device?): it starts over as a new device\n")
    }
    io.write(
      "this library now syncs with \(settings.connectionString) as device \(store.deviceID)"
        + " of the account \(server.account.name); run `notes sync` to sync\n")
    if let passwordFile {
      io.write("the password is in \(passwordFile) (readable by you only), not in the library\n")
    }
  }

  private static func syncNow(path: String, io: CommandIO) throws {
    let engine: SyncEngine
    do {
      engine = try SyncEngine(libraryPath: path)
    } catch let error as SyncEngine.NotSetUp {
      throw CommandFailure(.failure, error.description)
    }
    defer { engine.close() }
    var progress = ProgressLine(io: io)
    defer { progress.finish() }
    let report = try engine.sync { step in
      progress.show("Syncing", done: step.done, total: step.total)
    }
    progress.finish()
    var line =
      "pushed \(Counts.phrase(report.pushed, "change")),"
      + " pulled \(Counts.phrase(report.pulled, "change"))"
    if report.conflictCopies > 0 {
      line += ", saved \(Counts.phrase(report.conflictCopies, "conflict copy"))"
    }
    if !report.keptAside.isEmpty {
      line += ", kept aside \(Counts.phrase(report.keptAside.count, "bad version"))"
    }
    if report.pending > 0 { line += "; \(Counts.grouped(report.pending)) still pending" }
    io.write(line + "\n")
    for notice in report.notices { io.write("notice: \(notice)\n") }
    for version in report.keptAside {
      io.write("kept aside: \(DisplayText.line(version.summary))\n")
    }
  }
}
