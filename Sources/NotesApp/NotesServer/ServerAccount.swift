/// The account a device's connection acts as.
///
/// It is checked before the device syncs.
///
/// ```swift
/// let connection = try PostgresConnection(url: "host=db.example user=alice dbname=notes …")
/// let account = try ServerAccount(checking: connection)   // refuses a superuser
/// try connection.listen(account.channel)
/// ```
///
/// ## Guarantees
///
/// - A device syncs only as an account: a login role that is not a superuser, cannot
///   bypass row-level security, does not own the tables (nor may act as their owner) and
///   has a row in `notes_accounts`. Any other role is refused with a reason that says
///   what to do; nothing is read or written first.
/// - The account's notification channel is read through row-level security, so a role
///   learns its own channel and no other.
public struct ServerAccount: Equatable, Sendable {
  /// The account's name: the login role.
  public let name: String
  /// The channel its pushes signal on (`NOTIFY`); no other account can learn it.
  public let channel: String

  /// Checks that `connection` acts as an account and reads its channel.
  ///
  /// - Parameter connection: A connection to a server at this program's schema version.
  /// - Throws: ``PostgresError`` saying why the role may not sync: a superuser, a role that
  ///   bypasses row-level security, the tables' owner (or a member of it), or a role that
  ///   is not an account.
  public init(checking connection: PostgresConnection) throws {
    let role = try Self.checkRole(on: connection)
    let channel = try connection.execute(
      "SELECT channel FROM notes_accounts WHERE account = current_user"
    ).singleValue
    guard let channel else { throw Self.notAnAccount(role) }
    name = role
    self.channel = channel
  }

  /// Throws unless the connection's role may be an account, judged from the catalogs
  /// alone (readable by every role): not a superuser, no BYPASSRLS, not the tables' owner
  /// nor a member of it, and a member of `notes_sync`.
  ///
  /// - Parameter connection: A connection to a server with the notes tables.
  /// - Returns: The role's name.
  /// - Throws: ``PostgresError`` saying why the role may not sync.
  @discardableResult
  public static func checkRole(on connection: PostgresConnection) throws -> String {
    let rows = try connection.execute(
      """
      SELECT current_user, r.rolsuper, r.rolbypassrls,
        pg_has_role(current_user, t.tableowner, 'MEMBER'), t.tableowner,
        EXISTS (SELECT FROM pg_roles WHERE rolname = $1)
          AND pg_has_role(current_user, $1, 'MEMBER')
      FROM pg_roles r, pg_tables t
      WHERE r.rolname = current_user AND t.schemaname = current_schema()
        AND t.tablename = 'notes_changes'
      """, [ServerSchema.accountsRole])
    guard let row = rows.rows.first, let role = row[0] else {
      throw PostgresError(
        "the server has no notes tables yet: its operator runs `notes server init URL` first")
    }
    let quotedRole = "“\(role)”"
    if row[1] == "t" {
      throw PostgresError(
        "the role \(quotedRole) is a superuser, which row-level security does not hold back,"
          + " so a device never syncs as one: ask the server's operator for an account"
          + " (`notes server add-account NAME URL`) and set up sync with its name and password")
    }
    if row[2] == "t" {
      throw PostgresError(
        "the role \(quotedRole) may bypass row-level security, so a device never syncs as it:"
          + " ask the server's operator for an account (`notes server add-account NAME URL`)")
    }
    if row[3] == "t" {
      let owner = row[4].map { "“\($0)”" } ?? "the owner"
      throw PostgresError(
        "the role \(quotedRole) \(row[4] == role ? "owns" : "may act as \(owner), which owns")"
          + " the sync server's tables, so a device never syncs as it: ask the server's"
          + " operator for an account (`notes server add-account NAME URL`)")
    }
    guard row[5] == "t" else { throw notAnAccount(role) }
    return role
  }

  private static func notAnAccount(_ role: String) -> PostgresError {
    PostgresError(
      "the role “\(role)” is not an account on this sync server: the operator adds it"
        + " with `notes server add-account \(role) URL`")
  }
}
