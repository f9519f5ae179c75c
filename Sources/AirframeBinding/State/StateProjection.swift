/// A read-only view of state: a current value, and observation of every later value.
///
/// ``StateSource`` (writable state), ``DerivedState`` (map and combine),
/// ``AsyncProjection`` (asynchronous loads) and ``ObservationProjection`` (an
/// `@Observable` property) all conform. A ``Binder`` renders any projection.
///
/// ## Contract a conformer must pass
/// - `observe(_:)` calls the observer with the current value before it returns (replay),
///   then once for each later value, synchronously, on the main actor.
/// - During a call to an observer, `value` equals the value being delivered.
/// - The observation ends when the returned ``Lifetime`` is cancelled or released, even
///   in the middle of a delivery pass.
@MainActor
public protocol StateProjection<Value>: AnyObject {
  /// The type of the state.
  associatedtype Value

  /// The current value.
  var value: Value { get }

  /// Calls `observer` with the current value now, and with each later value.
  ///
  /// - Parameter observer: Called on the main actor, synchronously with each change.
  /// - Returns: The lifetime of the observation.
  func observe(_ observer: @escaping (Value) -> Void) -> Lifetime
}
