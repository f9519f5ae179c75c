// How a derived value's cache, a `StateSource` nobody else writes, is made and written
// during a pass of the derived graph (stored, never delivered: the pass delivers later),
// and the single-input stages that read a source's storage.

extension StateSource {
  /// A derived value that applies `transform` to this storage's value and suppresses
  /// what `isDuplicate` calls a repeat (nothing, without a predicate).
  @inlinable
  func derived<Output>(
    linkedBy link: DerivationLink,
    transform: @escaping (Value) -> Output,
    isDuplicate: ((Output, Output) -> Bool)?
  ) -> DerivedState<Output> {
    let output = StateSource<Output>.derived(
      UntrackedReads.perform { transform(stored) }, isDuplicate: isDuplicate)
    return DerivedState(output: output, inputs: [link]) { [self] in
      output.store(transform(stored), unlessDuplicateBy: isDuplicate)
    }
  }

  /// A derived value that applies `transform` to this storage's value and suppresses
  /// results equal to the cached one, comparing with `==` directly.
  @inlinable
  func derivedDistinct<Output: Equatable>(
    linkedBy link: DerivationLink,
    transform: @escaping (Value) -> Output
  ) -> DerivedState<Output> {
    let output = StateSource<Output>(UntrackedReads.perform { transform(stored) })
    return DerivedState(output: output, inputs: [link]) { [self] in
      output.storeIfChanged(transform(stored))
    }
  }
}

extension StateSource where Value: Equatable {
  /// This storage's values without consecutive equal ones, as a derived value.
  @inlinable
  func deduplicated(linkedBy link: DerivationLink) -> DerivedState<Value> {
    let output = StateSource(stored)
    return DerivedState(output: output, inputs: [link]) { [self] in
      output.storeIfChanged(stored)
    }
  }
}

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
