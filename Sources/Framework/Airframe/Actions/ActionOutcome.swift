/// What happened when an action was dispatched, undone or redone.
public enum ActionOutcome: Equatable, Sendable, CustomStringConvertible {
  /// The action ran and the model committed this revision, creating `created`.
  case committed(revision: Int, created: CreatedEntities = CreatedEntities())
  /// The action ran and changed nothing, so nothing was committed or recorded for undo.
  case unchanged
  /// Validation refused the action; nothing changed.
  case invalid(ValidationResult)
  /// The action or the model's storage failed; nothing changed.
  case failed(String)
  /// An action controller refused to start it (for example, one is already running).
  case rejected(String)
  /// It was cancelled before its result was committed.
  case cancelled
  /// A newer run replaced it before its result was committed.
  case superseded

  /// Whether the model committed a change.
  public var isCommitted: Bool {
    if case .committed = self { true } else { false }
  }

  /// A sentence for a status bar.
  public var description: String {
    switch self {
    case .committed(let revision, _): "Done (revision \(revision))."
    case .unchanged: "Nothing to change."
    case .invalid(let result): result.summary ?? "Not allowed."
    case .failed(let message): message
    case .rejected(let reason): reason
    case .cancelled: "Cancelled."
    case .superseded: "Replaced by a newer request."
    }
  }

  /// ``description`` for display: what a refusal quotes from the user is isolated
  /// (``ValidationIssue/displayMessage``).
  public var displayDescription: String {
    if case .invalid(let result) = self { return result.displaySummary ?? "Not allowed." }
    return description
  }
}
