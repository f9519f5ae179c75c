// How a derived value's cache, a `StateSource` nobody else writes, is made and written
// during a pass of the derived graph: stored, never delivered (the pass delivers later).

extension StateSource {
  /// Stores `newValue` unless `isDuplicate` calls it a repeat of the stored value, and
  /// returns whether it did.
  ///
  /// The cache of a derived value is written this way; nothing is delivered.
  @inlinable
  func store(_ newValue: Value, unlessDuplicateBy isDuplicate: ((Value, Value) -> Bool)?) -> Bool {
    // Optional chaining calls the predicate without retaining it.
    if isDuplicate?(stored, newValue) == true { return false }
    store(newValue)
    return true
  }

  /// The cache of a derived value: it suppresses what `isDuplicate` calls a repeat, and
  /// delivers every value when there is no predicate.
  @inlinable
  static func derived(
    _ initialValue: Value, isDuplicate: ((Value, Value) -> Bool)?
  ) -> StateSource<Value> {
    if let isDuplicate {
      return StateSource(initialValue, isDuplicate: isDuplicate)
    }
    return StateSource(initialValue)
  }
}

extension StateSource where Value: Equatable {
  /// Stores `newValue` unless it equals the stored value, and returns whether it did.
  ///
  /// The cache of a derived value is written this way; nothing is delivered.
  @inlinable
  func storeIfChanged(_ newValue: Value) -> Bool {
    if stored == newValue { return false }
    store(newValue)
    return true
  }
}
