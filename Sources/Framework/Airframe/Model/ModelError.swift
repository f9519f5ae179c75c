/// Why a write to a ``Model`` did not commit; in every case the state is unchanged.
public enum ModelError: Error, Equatable, CustomStringConvertible {
  /// A write was started while another write, or the delivery of a commit, was running.
  case reentrantWrite
  /// An insert used an id that already exists in the table.
  case duplicateID(table: String, id: String)
  /// An update or removal named an id that does not exist in the table.
  case missingID(table: String, id: String)
  /// The storage hook failed; its error's description.
  case storageFailed(String)
  /// ``Transaction/set(_:to:)`` was given a value with an ``EntityTable`` inside it, whose
  /// rows the change set could not name; the write's body should change the table itself.
  case tableInsideValue(path: String)

  /// A sentence for a status bar or a log.
  public var description: String {
    switch self {
    case .reentrantWrite:
      "A write was started while another write or its change notification was running."
    case .duplicateID(let table, let id): "\(table) already contains an item with id \(id)."
    case .missingID(let table, let id): "\(table) has no item with id \(id)."
    case .storageFailed(let message): "Saving failed: \(message)"
    case .tableInsideValue(let path):
      "\(path) holds an entity table, so it cannot be set as one value;"
        + " set or change the table itself."
    }
  }
}
