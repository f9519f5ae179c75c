/// Where a commit came from: the user, a task of the app, or another writer.
///
/// Every ``Commit`` carries one. An ``ActionDispatcher`` writes with ``user(_:)`` and the
/// action's name; every other writer says what it is, so a view can tell a change the user
/// made here from one that arrived from elsewhere:
///
/// ```swift
/// try model.write(origin: .background("sync status")) { $0.set(\.sync, to: .syncing) }
/// try model.write(origin: .external("another process")) { try apply(changes, to: &$0) }
/// ```
///
/// Only the user's own actions become undo steps (see ``ActionDispatcher``).
public enum CommitOrigin: Equatable, Sendable, CustomStringConvertible {
  /// The user's own action, such as `"Rename Note"` or `"Undo Rename Note"`, dispatched
  /// through an ``ActionDispatcher`` (or a command the user typed).
  case user(String)
  /// A task of this app, such as a sync updating its status.
  case background(String)
  /// Another writer: another process on the same storage, or a sync server.
  case external(String)

  /// Whether the user made the change here.
  public var isUser: Bool {
    if case .user = self { true } else { false }
  }

  /// A readable form, such as `user: Rename Note` or `external: sync server`.
  public var description: String {
    switch self {
    case .user(let name): "user: \(name)"
    case .background(let name): "background: \(name)"
    case .external(let name): "external: \(name)"
    }
  }
}
