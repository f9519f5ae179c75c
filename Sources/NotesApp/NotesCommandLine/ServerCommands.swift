import Foundation
import NotesFiles
import NotesServer

/// The commands on a sync server.
///
/// The operator's commands on a sync server — `notes server init URL`, `add-account NAME URL`,
/// `remove-account NAME URL` and `list-accounts URL`.
///
/// ## Guarantees
///
/// - The URL is a libpq connection string (`postgresql://user@host/db`, or `key=value`
///   pairs) for the operator's role (a superuser, or the role that owns the tables); a
///   password comes from the URL, `PGPASSWORD` or the password file, as libpq finds it. A
///   server that is not on this machine is reached with TLS and a checked certificate, or
///   as the URL explicitly says (`ConnectionSettings`).
/// - `init` prints what it did: created, upgraded from an older version, or already
///   current. A server from before accounts that holds rows is upgraded only with
///   `--account NAME`, the account they then belong to.
/// - `add-account` reads the account's password from the terminal without echo (twice, to
///   confirm), or from standard input when that is not a terminal; it is never printed or
///   stored, and only its SCRAM verifier reaches the server.
/// - Every failure exits with the reason and changes nothing: 64 for a wrong command line,
///   65 for an unusable password or an account that holds notes without `--yes`, 69 when
///   the server cannot be reached, 1 when it refuses.
/// - The URL is never printed with its password.
/// - Connecting and idle connections are bounded (`NetworkBounds.unhurried`); a statement
///   runs as long as it takes (an upgrade of a large server's tables may take minutes, and
///   the operator sees it run).
enum ServerCommands {
  /// Runs `command`.
  ///
  /// - Throws: ``CommandFailure`` with the reason.
  static func run(_ command: ServerCommand, io: CommandIO) throws(CommandFailure) {
    do {
      switch command {
      case .initialize(let url, let account):
        try initialize(url: url, legacyAccount: account, io: io)
      case .addAccount(let name, let url):
        try addAccount(name, url: url, io: io)
      case .removeAccount(let name, let url, let confirmed):
        let connection = try PostgresConnection(settings: settings(url), bounds: .unhurried)
        defer { connection.close() }
        let removed = try ServerAccounts.remove(name, confirmed: confirmed, on: connection)
        io.write(
          "removed the account \(name): its role, \(Counts.phrase(removed.devices, "device")),"
            + " \(Counts.phrase(removed.notebooks, "notebook")) and"
            + " \(Counts.phrase(removed.notes, "note")) on the server\n")
      case .listAccounts(let url):
        let connection = try PostgresConnection(settings: settings(url), bounds: .unhurried)
        defer { connection.close() }
        for account in try ServerAccounts.list(on: connection) {
          var line =
            "\(account.name)\t\(Counts.phrase(account.devices, "device"))"
            + "\t\(Counts.phrase(account.notebooks, "notebook"))"
            + "\t\(Counts.phrase(account.notes, "note"))\tlast push \(account.lastPush ?? "never")"
          if !account.canLogIn { line += "\tno login yet (add-account makes it)" }
          io.write(line + "\n")
        }
      }
    } catch let failure as CommandFailure {
      throw failure
    } catch let holds as ServerAccounts.HoldsNotes {
      throw CommandFailure(.invalidData, holds.description)
    } catch let error as PostgresError where error.isUnavailable {
      throw CommandFailure(.unavailable, "\(error)")
    } catch {
      throw CommandFailure(.failure, "\(error)")
    }
  }

  /// The settings of `url`, or a usage failure saying why libpq cannot read it.
  static func settings(_ url: String) throws(CommandFailure) -> ConnectionSettings {
    do {
      return try ConnectionSettings(url)
    } catch {
      throw CommandFailure(.usage, error.message)
    }
  }

  private static func initialize(url: String, legacyAccount: String?, io: CommandIO) throws {
    let connection = try PostgresConnection(settings: settings(url), bounds: .unhurried)
    defer { connection.close() }
    let version = ServerSchema.version
    switch try ServerSchema.prepare(connection, legacyAccount: legacyAccount) {
    case .created:
      io.write("created the sync server's tables (schema \(version))\n")
    case .upgraded(let old):
      let owner = legacyAccount.map { "; what was there belongs to the account \($0)" } ?? ""
      io.write("upgraded the sync server's tables from schema \(old) to \(version)\(owner)\n")
    case .current:
      io.write("the sync server's tables are up to date (schema \(version))\n")
    }
  }

  private static func addAccount(_ name: String, url: String, io: CommandIO) throws {
    if let problem = ServerSchema.accountNameProblem(name) {
      throw CommandFailure(.usage, problem)
    }
    let settings = try settings(url)
    // The password first: bad input changes nothing, and no connection waits on a person.
    let password = try SecretPrompt.password(for: name, io: io, confirmed: true)
    let connection = try PostgresConnection(settings: settings, bounds: .unhurried)
    defer { connection.close() }
    try ServerAccounts.add(name, password: password, on: connection)
    let device = settings.withoutPassword.setting("user", to: name)
    io.write(
      "added the account \(name); each of its devices syncs with"
        + " `notes sync setup \(shellQuoted(device.connectionString))`, which asks for the"
        + " password given here\n")
  }

  /// `text` in single quotes for a POSIX shell.
  static func shellQuoted(_ text: String) -> String {
    "'" + text.replacing("'", with: "'\\''") + "'"
  }
}
