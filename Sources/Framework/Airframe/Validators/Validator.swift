/// A rule that checks a value and returns the reasons it is not acceptable.
///
/// Conformers are small values: ``NonEmptyText``, ``MaximumLength``,
/// ``NoControlCharacters``, ``UniqueWithin`` and ``ExistingID``. A list of them is a
/// ``ValidatorList``, written as the list of rules it is:
///
/// ```swift
/// let titleRules = ValidatorList<String> {
///   NonEmptyText(field: "title").applied(to: { $0.trimmingCharacters(in: .whitespaces) })
///   MaximumLength(field: "title", limit: 200)
///   NoControlCharacters(field: "title")
/// }
/// titleRules.validate(title).summary   // "The title must not be empty." or nil
/// ```
///
/// A conformer must return no issue for a valid value and at least one issue, each with a
/// message naming the field, for an invalid one.
///
/// ## Guarantees
///
/// - A validator never changes anything; it only reports issues.
/// - A ``ValidatorList`` runs every validator in it, in order, and collects every issue;
///   it does not stop at the first failure.
public protocol Validator<Value>: Sendable {
  /// The type of value checked.
  associatedtype Value

  /// The issues `value` has; empty if it is acceptable.
  ///
  /// - Parameter value: The value to check.
  /// - Returns: Every issue found.
  func issues(in value: Value) -> [ValidationIssue]
}

/// A type-erased validator, for storing validators of different types together.
///
/// A ``ValidatorList`` erases its rules itself; call sites need this type only to keep a
/// validator of an unknown type in a property.
public struct AnyValidator<Value>: Validator {
  private let check: @Sendable (Value) -> [ValidationIssue]

  /// Wraps `validator`.
  ///
  /// - Parameter validator: The rule to run.
  public init<Base: Validator>(_ validator: Base) where Base.Value == Value {
    check = { validator.issues(in: $0) }
  }

  /// The issues the wrapped validator finds in `value`.
  ///
  /// - Parameter value: The value to check.
  /// - Returns: Every issue found.
  public func issues(in value: Value) -> [ValidationIssue] { check(value) }
}
