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

extension StateProjection {
  /// Calls `observer` with the current value now and with each later value, handing it
  /// the observation's own lifetime, so that any call, the replay included, can end it.
  ///
  /// ``observe(_:)`` returns its lifetime only after the replay has run, so the replay
  /// cannot reach it. Use this variant for an observation that stops itself, such as one
  /// that waits for a value and then ends:
  ///
  /// ```swift
  /// loaded.observe(withLifetime: { isLoaded, lifetime in
  ///   guard isLoaded else { return }
  ///   showContent()
  ///   lifetime.cancel()          // nothing more is delivered, even during the replay
  /// })
  /// ```
  ///
  /// - Parameter observer: Called synchronously on the main actor with each value and the
  ///   lifetime this method returns.
  /// - Returns: The lifetime of the observation; the same object every call receives.
  public func observe(
    withLifetime observer: @escaping (Value, Lifetime) -> Void
  ) -> Lifetime {
    Lifetime.linked { lifetime in
      observe { [weak lifetime] value in
        guard let lifetime, !lifetime.isCancelled else { return }
        observer(value, lifetime)
      }
    }
  }

  /// Stores the observation in `bag` before the replay, then calls `observer` with the
  /// current value and each later value.
  ///
  /// Unlike `observe(_:).store(in: bag)`, a replay that cancels `bag` (or closes it)
  /// ends this observation too: nothing more is delivered.
  ///
  /// - Parameters:
  ///   - bag: The owner's bag; if it is already closed, the observer is never called.
  ///   - observer: Called synchronously on the main actor with each value.
  public func observe(in bag: LifetimeBag, _ observer: @escaping (Value) -> Void) {
    guard !bag.isClosed else { return }
    _ = Lifetime.linked(storedIn: bag) { lifetime in
      observe { [weak lifetime] value in
        guard let lifetime, !lifetime.isCancelled else { return }
        observer(value)
      }
    }
  }
}
