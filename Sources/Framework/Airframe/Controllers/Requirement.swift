/// What an ``ActionController``'s requirement decided: met, with the value the action is
/// built from, or unmet, with the reason the command is unavailable.
///
/// A requirement narrows the controller's context to what its action needs, so the
/// action is built from a checked value instead of unwrapping the context again:
///
/// ```swift
/// requires: { selection, _ in Requirement(selection.note, otherwise: "Select a note.") }
/// makeAction: { note in DeleteNote(id: note) }   // `note` is a NoteID, not an optional
/// ```
public struct Requirement<Value> {
  /// The decision.
  enum Verdict {
    case met(Value)
    case unmet(Availability)
  }

  let verdict: Verdict

  private init(_ verdict: Verdict) { self.verdict = verdict }

  /// A met requirement, with the value the action is built from.
  ///
  /// - Parameter value: What the action needs, such as the selected note's id.
  /// - Returns: The requirement.
  public static func met(_ value: Value) -> Requirement { Requirement(.met(value)) }

  /// An unmet requirement.
  ///
  /// - Parameter reason: A sentence for a tooltip or a status bar.
  /// - Returns: The requirement.
  public static func unmet(_ reason: String) -> Requirement {
    Requirement(.unmet(.disabled(reason)))
  }

  /// An unmet requirement with the issues of an availability, such as another rule's.
  ///
  /// - Parameter availability: A disabled availability; an enabled one is treated as
  ///   unmet for an unknown reason ("Unavailable."), since there is no value to hand on.
  /// - Returns: The requirement.
  public static func unmet(_ availability: Availability) -> Requirement {
    Requirement(.unmet(availability.isEnabled ? .disabled("Unavailable.") : availability))
  }

  /// Met with `value` when there is one, unmet with `reason` when it is `nil`.
  ///
  /// - Parameters:
  ///   - value: What the action needs, if the context has it (the selection, say).
  ///   - reason: Why the command is unavailable without it.
  public init(_ value: Value?, otherwise reason: String) {
    self = value.map(Requirement.met) ?? .unmet(reason)
  }

  /// Whether the requirement is met.
  public var isMet: Bool {
    if case .met = verdict { true } else { false }
  }

  /// The availability this requirement alone gives: enabled when met, else the reason.
  public var availability: Availability {
    switch verdict {
    case .met: .enabled
    case .unmet(let availability): availability
    }
  }

  /// The checked value carried on to a further rule, or the same refusal.
  ///
  /// - Parameter next: A further rule on the checked value.
  /// - Returns: `next`'s requirement when this one is met; this refusal otherwise.
  public func then<Next>(_ next: (Value) -> Requirement<Next>) -> Requirement<Next> {
    switch verdict {
    case .met(let value): next(value)
    case .unmet(let availability): .unmet(availability)
    }
  }
}
