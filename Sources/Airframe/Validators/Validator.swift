/// A rule that checks a value and returns the reasons it is not acceptable.
///
/// Conformers are small values: ``NonEmptyText``, ``MaximumLength``,
/// ``NoControlCharacters``, ``UniqueWithin`` and ``ExistingID``. Run several with
/// ``validate(_:using:)``:
///
/// ```swift
/// let result = validate(title, using: [
///   AnyValidator(NonEmptyText(field: "title")),
///   AnyValidator(MaximumLength(field: "title", limit: 200)),
/// ])
/// result.summary   // "The title must not be empty." or nil
/// ```
///
/// A conformer must return no issue for a valid value and at least one issue, each with a
/// message naming the field, for an invalid one.
///
/// ## Guarantees
///
/// - A validator never changes anything; it only reports issues.
/// - `validate(_:using:)` runs every validator in the list, in order, and collects every
///   issue; it does not stop at the first failure.
public protocol Validator<Value>: Sendable {
  /// The type of value checked.
  associatedtype Value

  /// The issues `value` has; empty if it is acceptable.
  ///
  /// - Parameter value: The value to check.
  /// - Returns: Every issue found.
  func issues(in value: Value) -> [ValidationIssue]
}

/// A type-erased validator, so validators of different types can share a list.
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

/// Runs every validator on `value` and collects all their issues.
///
/// - Parameters:
///   - value: The value to check.
///   - validators: The rules, run in order; none is skipped after a failure.
/// - Returns: The collected result.
public func validate<Value>(
  _ value: Value,
  using validators: [AnyValidator<Value>]
) -> ValidationResult {
  ValidationResult(validators.flatMap { $0.issues(in: value) })
}
