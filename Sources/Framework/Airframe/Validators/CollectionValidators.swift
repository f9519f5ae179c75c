/// Requires a value that no other member of a collection already has.
///
/// ```swift
/// let unique = UniqueWithin(field: "notebook title", existing: titles) { $0.lowercased() }
/// unique.issues(in: "Work")   // an issue if "work" is taken, ignoring case
/// ```
public struct UniqueWithin<Value, Key: Hashable & Sendable>: Validator {
  /// The field name used in the message.
  public let field: String
  /// Each taken key, with the first value that has it, as it is spelled.
  private let existing: [Key: String]
  private let key: @Sendable (Value) -> Key

  /// Creates the rule.
  ///
  /// - Parameters:
  ///   - field: The field name used in the message.
  ///   - existing: The values already taken.
  ///   - key: What makes two values the same, such as a lowercased title.
  public init(
    field: String,
    existing: some Sequence<Value>,
    key: @escaping @Sendable (Value) -> Key
  ) {
    self.field = field
    self.key = key
    var taken: [Key: String] = [:]
    for value in existing where taken[key(value)] == nil { taken[key(value)] = "\(value)" }
    self.existing = taken
  }

  /// An issue if `value`'s key is already taken.
  ///
  /// The message names the value that has the key as it is spelled, so `"work"` against
  /// an existing `"Work"` says `A notebook title "Work" already exists.`
  ///
  /// - Parameter value: The value to check.
  /// - Returns: One issue, or none.
  public func issues(in value: Value) -> [ValidationIssue] {
    guard let taken = existing[key(value)] else { return [] }
    return [
      ValidationIssue(field: field) { user in "A \(field) \"\(user(taken))\" already exists." }
    ]
  }
}

/// Requires an id that exists, for actions that name an entity.
public struct ExistingID<ID: Hashable & Sendable>: Validator {
  /// The field name used in the message, such as `"notebook"`.
  public let field: String
  private let ids: Set<ID>

  /// Creates the rule.
  ///
  /// - Parameters:
  ///   - field: The field name used in the message.
  ///   - ids: The ids that exist.
  public init(field: String, ids: some Sequence<ID>) {
    self.field = field
    self.ids = Set(ids)
  }

  /// An issue if `value` is not one of the existing ids.
  ///
  /// - Parameter value: The id to check.
  /// - Returns: One issue, or none.
  public func issues(in value: ID) -> [ValidationIssue] {
    ids.contains(value)
      ? [] : [ValidationIssue(field: field, message: "There is no \(field) with id \(value).")]
  }
}
