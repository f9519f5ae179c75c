/// One operation on the model: it says whether it can run, runs through the write funnel,
/// and returns its inverse for undo.
///
/// ```swift
/// struct RenameNote: Action {
///   let id: Note.ID
///   let title: String
///   var name: String { "Rename Note" }
///
///   func validate(in state: Library) -> ValidationResult {
///     ValidatorList { NonEmptyText(field: "title") }.validate(title)
///   }
///
///   func perform(in transaction: inout Transaction<Library>) throws -> any Action<Library> {
///     let old = transaction.state.notes[id]?.title ?? ""
///     try transaction.update(id, in: \.notes) { $0.title = title }
///     return RenameNote(id: id, title: old)
///   }
/// }
/// ```
///
/// A menu item asks ``validate(in:)`` for the reasons it is disabled; an
/// ``ActionDispatcher`` runs the action and records its inverse.
///
/// ## Guarantees a conformer must keep (the dispatcher relies on them)
///
/// - `validate(in:)` only reads the state and returns every reason the action cannot run;
///   empty means it can.
/// - `perform(in:)` changes the state only through the transaction it is given and
///   returns the action that undoes exactly what it did, computed from the state it saw.
/// - An action that throws from `perform` leaves nothing behind: the model discards the
///   whole write. An action that finds its input invalid only while performing throws
///   ``ActionRefusal``, which the dispatcher reports as invalid with the reasons.
public protocol Action<State> {
  /// The model state the action works on.
  associatedtype State

  /// The name shown in menus and in "Undo …" items, such as `"Rename Notebook"`.
  var name: String { get }

  /// Every reason the action cannot run against `state`; empty when it can.
  ///
  /// - Parameter state: The model's current state.
  /// - Returns: The validation result.
  func validate(in state: State) -> ValidationResult

  /// Makes the change through `transaction` and returns the action that undoes it.
  ///
  /// - Parameter transaction: The write's transaction.
  /// - Returns: The inverse action.
  /// - Throws: Any error; the model then discards the whole write.
  func perform(in transaction: inout Transaction<State>) throws -> any Action<State>
}
