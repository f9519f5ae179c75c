// The single-input derivations: `map` and `removingDuplicates`.
//
// They are inlinable, so the closure that recomputes a stage is made where the value
// types are known, and reads its input's storage directly: a write through a chain of
// them costs a few direct calls per stage, not a generic delivery pass per stage. The
// closure is made by the input's storage (StateSource+Derived.swift), so it depends only
// on the input and output types: a stage over a source and one over a derived value
// share one specialization.

extension StateProjection {
  /// A derived value computed from this projection's value.
  ///
  /// - Parameter transform: Runs once now and once per new input value.
  /// - Returns: The derived state; keep it for as long as you observe it.
  @inlinable
  public func map<Output>(_ transform: @escaping (Value) -> Output) -> DerivedState<Output> {
    deriving(transform, isDuplicate: nil)
  }

  /// A derived value that suppresses results equal to the previous one.
  ///
  /// - Parameter transform: Runs once now and once per new input value.
  /// - Returns: The derived state; keep it for as long as you observe it.
  @inlinable
  public func map<Output: Equatable>(
    _ transform: @escaping (Value) -> Output
  ) -> DerivedState<Output> {
    derivingDistinct(transform)
  }

  /// This projection's values, without consecutive values `isDuplicate` calls equal.
  ///
  /// - Parameter isDuplicate: Returns `true` when the new value (second argument)
  ///   repeats the previous one (first argument).
  /// - Returns: The derived state; keep it for as long as you observe it.
  @inlinable
  public func removingDuplicates(
    by isDuplicate: @escaping (Value, Value) -> Bool
  ) -> DerivedState<Value> {
    deriving({ $0 }, isDuplicate: isDuplicate)
  }

  /// A stage that applies `transform` and suppresses what `isDuplicate` calls a repeat
  /// (nothing, without a predicate).
  @inlinable
  func deriving<Output>(
    _ transform: @escaping (Value) -> Output,
    isDuplicate: ((Output, Output) -> Bool)?
  ) -> DerivedState<Output> {
    guard let member = self as? any DerivationInput<Value> else {
      return DerivedState(inputs: self, transform: transform, isDuplicate: isDuplicate)
    }
    return member.derivationSource.derived(
      linkedBy: DerivationLink(self), transform: transform, isDuplicate: isDuplicate)
  }
}

extension StateProjection where Value: Equatable {
  /// This projection's values, without consecutive equal values.
  ///
  /// - Returns: The derived state; keep it for as long as you observe it.
  @inlinable
  public func removingDuplicates() -> DerivedState<Value> {
    guard let member = self as? any DerivationInput<Value> else {
      return removingDuplicates(by: { $0 == $1 })
    }
    return member.derivationSource.deduplicated(linkedBy: DerivationLink(self))
  }
}

extension StateProjection {
  /// A stage that applies `transform` and suppresses results equal to the cached one,
  /// comparing with `==` directly.
  @inlinable
  func derivingDistinct<Output: Equatable>(
    _ transform: @escaping (Value) -> Output
  ) -> DerivedState<Output> {
    guard let member = self as? any DerivationInput<Value> else {
      return deriving(transform, isDuplicate: { $0 == $1 })
    }
    return member.derivationSource.derivedDistinct(
      linkedBy: DerivationLink(self), transform: transform)
  }
}
