/// Rules for one value, written as the list they are, run in order with every issue
/// collected.
///
/// ```swift
/// static let bodyRules = ValidatorList<String> {
///   MaximumLength(field: "body", limit: 1_000_000)
///   NoControlCharacters(field: "body")
///   if strict { NoInvisibleCharacters(field: "body") }
/// }
/// let result = bodyRules.validate(body)   // every issue, in the order of the rules
/// ```
///
/// ## Guarantees
///
/// - Every rule runs, in the order written; none is skipped after a failure, so a person
///   sees every reason at once.
/// - A list is itself a ``Validator``, so lists nest.
public struct ValidatorList<Value>: Validator {
  private let rules: [AnyValidator<Value>]

  /// Creates a list from the rules written in `rules`.
  ///
  /// - Parameter rules: Each line a validator of `Value`; `if`, `if`/`else` and `for`
  ///   choose rules by conditions known when the list is made.
  public init(@ValidatorBuilder<Value> _ rules: () -> [AnyValidator<Value>]) {
    self.rules = rules()
  }

  /// Every issue of every rule, in the rules' order.
  ///
  /// - Parameter value: The value to check.
  /// - Returns: The issues; empty if every rule accepts `value`.
  public func issues(in value: Value) -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    for rule in rules { issues += rule.issues(in: value) }
    return issues
  }

  /// Runs every rule on `value`.
  ///
  /// - Parameter value: The value to check.
  /// - Returns: The collected result.
  public func validate(_ value: Value) -> ValidationResult { ValidationResult(issues(in: value)) }
}

/// Builds a ``ValidatorList`` from the validators written one per line.
@resultBuilder
public enum ValidatorBuilder<Value> {
  /// One rule.
  ///
  /// - Parameter rule: A validator of the list's value.
  /// - Returns: The rule, erased.
  public static func buildExpression<Rule: Validator>(_ rule: Rule) -> [AnyValidator<Value>]
  where Rule.Value == Value {
    [AnyValidator(rule)]
  }

  /// The rules of a block, in order.
  ///
  /// - Parameter parts: Each line's rules.
  /// - Returns: All of them.
  public static func buildBlock(_ parts: [AnyValidator<Value>]...) -> [AnyValidator<Value>] {
    parts.flatMap { $0 }
  }

  /// The rules of an `if` without `else`: none when the condition is false.
  ///
  /// - Parameter part: The rules, if the condition held.
  /// - Returns: Them, or none.
  public static func buildOptional(_ part: [AnyValidator<Value>]?) -> [AnyValidator<Value>] {
    part ?? []
  }

  /// The rules of an `if` branch.
  ///
  /// - Parameter part: The branch's rules.
  /// - Returns: The same rules.
  public static func buildEither(first part: [AnyValidator<Value>]) -> [AnyValidator<Value>] {
    part
  }

  /// The rules of an `else` branch.
  ///
  /// - Parameter part: The branch's rules.
  /// - Returns: The same rules.
  public static func buildEither(second part: [AnyValidator<Value>]) -> [AnyValidator<Value>] {
    part
  }

  /// The rules of a `for` loop, in the loop's order.
  ///
  /// - Parameter parts: Each pass's rules.
  /// - Returns: All of them.
  public static func buildArray(_ parts: [[AnyValidator<Value>]]) -> [AnyValidator<Value>] {
    parts.flatMap { $0 }
  }
}

/// A validator run on one part or form of a larger value, such as a title as it would be
/// stored.
public struct PartValidator<Whole, Base: Validator>: Validator {
  private let base: Base
  private let part: @Sendable (Whole) -> Base.Value

  init(base: Base, part: @escaping @Sendable (Whole) -> Base.Value) {
    self.base = base
    self.part = part
  }

  /// The base validator's issues in the part of `value`.
  ///
  /// - Parameter value: The whole value.
  /// - Returns: Every issue the base validator finds in the part.
  public func issues(in value: Whole) -> [ValidationIssue] { base.issues(in: part(value)) }
}

extension Validator {
  /// This rule, run on what `part` makes of the value instead of the value itself.
  ///
  /// ```swift
  /// NonEmptyText(field: "title").applied(to: NotesRules.normalizedTitle)
  /// ```
  ///
  /// - Parameter part: Picks or transforms what this rule checks, such as the trimmed text.
  /// - Returns: A validator of the whole value.
  public func applied<Whole>(to part: @escaping @Sendable (Whole) -> Value)
    -> PartValidator<Whole, Self>
  {
    PartValidator(base: self, part: part)
  }
}
