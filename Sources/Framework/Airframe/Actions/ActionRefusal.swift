/// Thrown from ``Action/perform(in:)`` by an action that can judge part of its input only
/// while performing, so the dispatcher reports a refusal, not a failure.
///
/// A batch whose later items depend on what earlier ones create (a note in a notebook the
/// same import makes) can validate each item only against the state as the batch has
/// changed it so far. It performs the items it can, collects the reasons of those it
/// cannot, and throws this error with every reason:
///
/// ```swift
/// func perform(in transaction: inout Transaction<Library>) throws -> any Action<Library> {
///   var issues: [ValidationIssue] = []
///   for (index, note) in notes.enumerated() { … issues += itemIssues(index, note) … }
///   if !issues.isEmpty { throw ActionRefusal(ValidationResult(issues)) }
///   return RemoveNotes(ids: created)
/// }
/// ```
///
/// ## Guarantees
///
/// - An ``ActionDispatcher`` discards the whole write, as for any error from `perform`, and
///   reports ``ActionOutcome/invalid(_:)`` with the error's result (not
///   ``ActionOutcome/failed(_:)``); the action log records it as invalid with its reasons.
public struct ActionRefusal: Error, Equatable, Sendable {
  /// Why the action cannot run.
  public let result: ValidationResult

  /// Creates a refusal.
  ///
  /// - Parameter result: Every reason; it should not be empty.
  public init(_ result: ValidationResult) { self.result = result }
}
