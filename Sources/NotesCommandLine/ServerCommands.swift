// ServerCommands: `notes server init URL`, which creates or upgrades the sync server's
// tables on a PostgreSQL database.
//
// Guarantees
// - The URL is a libpq connection string (`postgresql://user@host/db`, or `key=value`
//   pairs); a password comes from the URL, `PGPASSWORD` or `~/.pgpass`, as libpq finds it.
// - Prints what it did: created, upgraded from an older version, or already current.
// - A server that cannot be reached, or whose schema is newer than this program's, exits
//   1 with the reason and nothing is changed.
// - The URL is never printed back whole (it may hold a password).

import Foundation
import NotesServer

/// The commands on a sync server.
enum ServerCommands {
  /// Creates or upgrades the server's tables and says which.
  ///
  /// - Throws: ``CommandFailure`` with exit code 1 when the server cannot be reached or
  ///   refuses the schema.
  static func initialize(url: String, io: CommandIO) throws(CommandFailure) {
    do {
      let connection = try PostgresConnection(url: url)
      defer { connection.close() }
      switch try ServerSchema.prepare(connection) {
      case .created:
        io.write("created the sync server's tables (schema \(ServerSchema.version))\n")
      case .upgraded(let old):
        io.write(
          "upgraded the sync server's tables from schema \(old) to \(ServerSchema.version)\n")
      case .current:
        io.write("the sync server's tables are up to date (schema \(ServerSchema.version))\n")
      }
    } catch {
      throw CommandFailure(.failure, "\(error)")
    }
  }
}
