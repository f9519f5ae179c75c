extension NotesDatabase {
  /// What a commit that `persist` returned from survives.
  ///
  /// It is chosen when the database opens.
  ///
  /// ## Guarantees
  ///
  /// - Both levels keep the database consistent (WAL journal, atomic commits); they differ
  ///   only in whether the last commits can be lost when the operating system, not just the
  ///   app, stops.
  public enum Durability: Sendable {
    /// Survives the app crashing or being killed at any moment (`synchronous = NORMAL`).
    ///
    /// An operating-system crash or power loss may lose the last commits, never corrupt
    /// the file. One commit costs microseconds.
    case survivesAppCrash
    /// Also survives an operating-system crash or power loss (`synchronous = FULL`).
    ///
    /// Each commit waits for the disk (`fsync`), typically milliseconds.
    case survivesPowerLoss

    var pragma: String {
      switch self {
      case .survivesAppCrash: "PRAGMA synchronous = NORMAL"
      case .survivesPowerLoss: "PRAGMA synchronous = FULL"
      }
    }
  }
}
