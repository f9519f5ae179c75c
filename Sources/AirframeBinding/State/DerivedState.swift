/// A value computed from one or more projections and cached until an input changes.
///
/// Create one with `map(_:)` or ``StateProjection/removingDuplicates(by:)`` on any
/// projection, or with `init(combining:transform:)` for several inputs:
///
/// ```swift
/// let count = StateSource(3)
/// let label = count.map { "\($0) notes" }            // computed once: "3 notes"
/// let both = DerivedState(combining: count, label) { "\($0) / \($1)" }
/// ```
///
/// - Complexity: Reading ``value`` and observing are O(1); an input change costs one
///   transform call plus delivery to the derived state's observers.
///
/// ## Guarantees
/// - Replay: observing replays the cached derived value; nothing is recomputed.
/// - Caching: the transform runs once when the derived state is created and then only
///   when an input it reads delivers a new value (inputs suppress their own duplicates),
///   never when the derived value is read or observed.
/// - Duplicates: a recomputed value equal to the cached one (Equatable values, or a
///   `removingDuplicates(by:)` predicate) is not delivered.
/// - Lifetime: a derived state observes its inputs for as long as it exists; releasing it
///   ends those observations. It holds its inputs strongly and is held by nobody but its
///   owner.
/// - Ordering: delivery follows the inputs' synchronous delivery. A combination of two
///   inputs that both derive from one source can publish an intermediate combination
///   (the first input updated, the second not yet); derive such values from the common
///   source in one transform instead.
@MainActor
public final class DerivedState<Value>: StateProjection {
  private let output: StateSource<Value>
  private var inputLifetimes: [Lifetime] = []

  private init(
    initialValue: Value,
    isDuplicate: ((Value, Value) -> Bool)?
  ) {
    if let isDuplicate {
      output = StateSource(initialValue, isDuplicate: isDuplicate)
    } else {
      output = StateSource(initialValue)
    }
  }

  /// Creates a value derived from every input in `inputs`, recomputed when any of them
  /// delivers a new value.
  ///
  /// - Parameters:
  ///   - inputs: The projections the transform reads.
  ///   - transform: Computes the derived value from the inputs' current values.
  public convenience init<each Input: StateProjection>(
    combining inputs: repeat each Input,
    transform: @escaping (repeat (each Input).Value) -> Value
  ) {
    self.init(inputs: repeat each inputs, transform: transform, isDuplicate: nil)
  }

  convenience init<each Input: StateProjection>(
    inputs: repeat each Input,
    transform: @escaping (repeat (each Input).Value) -> Value,
    isDuplicate: ((Value, Value) -> Bool)?
  ) {
    let recompute: () -> Value = {
      UntrackedReads.perform { transform(repeat (each inputs).value) }
    }
    self.init(initialValue: recompute(), isDuplicate: isDuplicate)
    var replaying = true
    for input in repeat each inputs {
      let lifetime = input.observe { [weak self] _ in
        guard !replaying, let self else { return }
        self.output.set(recompute())
      }
      inputLifetimes.append(lifetime)
    }
    replaying = false
  }

  /// The cached derived value.
  public var value: Value { output.value }

  /// Replays the cached value, then delivers each new derived value.
  ///
  /// - Parameter observer: Called synchronously on the main actor.
  /// - Returns: The lifetime of the observation.
  public func observe(_ observer: @escaping (Value) -> Void) -> Lifetime {
    output.observe(observer)
  }
}

extension DerivedState where Value: Equatable {
  /// Creates a value derived from every input in `inputs`; equal results are not
  /// delivered again.
  ///
  /// - Parameters:
  ///   - inputs: The projections the transform reads.
  ///   - transform: Computes the derived value from the inputs' current values.
  public convenience init<each Input: StateProjection>(
    combining inputs: repeat each Input,
    transform: @escaping (repeat (each Input).Value) -> Value
  ) {
    self.init(inputs: repeat each inputs, transform: transform, isDuplicate: { $0 == $1 })
  }
}

extension StateProjection {
  /// A derived value computed from this projection's value.
  ///
  /// - Parameter transform: Runs once now and once per new input value.
  /// - Returns: The derived state; keep it for as long as you observe it.
  public func map<Output>(_ transform: @escaping (Value) -> Output) -> DerivedState<Output> {
    DerivedState(inputs: self, transform: transform, isDuplicate: nil)
  }

  /// A derived value that suppresses results equal to the previous one.
  ///
  /// - Parameter transform: Runs once now and once per new input value.
  /// - Returns: The derived state; keep it for as long as you observe it.
  public func map<Output: Equatable>(
    _ transform: @escaping (Value) -> Output
  ) -> DerivedState<Output> {
    DerivedState(inputs: self, transform: transform, isDuplicate: { $0 == $1 })
  }

  /// This projection's values, without consecutive values `isDuplicate` calls equal.
  ///
  /// - Parameter isDuplicate: Returns `true` when the new value (second argument)
  ///   repeats the previous one (first argument).
  /// - Returns: The derived state; keep it for as long as you observe it.
  public func removingDuplicates(
    by isDuplicate: @escaping (Value, Value) -> Bool
  ) -> DerivedState<Value> {
    DerivedState(inputs: self, transform: { $0 }, isDuplicate: isDuplicate)
  }
}

extension StateProjection where Value: Equatable {
  /// This projection's values, without consecutive equal values.
  ///
  /// - Returns: The derived state; keep it for as long as you observe it.
  public func removingDuplicates() -> DerivedState<Value> {
    removingDuplicates(by: { $0 == $1 })
  }
}
