extension StateProjection where Value: Sendable {
  /// The projection's values as an asynchronous sequence: the current value first, then
  /// each later value.
  ///
  /// ```swift
  /// for await title in window.title.values() {
  ///   print(title)
  /// }
  /// ```
  ///
  /// ## Replay and buffering
  /// - The first element is the value current when `values(bufferingPolicy:)` was called
  ///   (the replay); then every value the projection delivers, in order.
  /// - A slow consumer: with the default policy, `.bufferingNewest(1)`, the sequence
  ///   keeps only the newest value not yet consumed, so a consumer that falls behind skips
  ///   intermediate values and always ends on the latest one, as state should. Pass
  ///   `.unbounded` to receive every value, at the cost of memory while it is behind, or
  ///   `.bufferingOldest(n)` to keep the first `n`.
  /// - The observation behind the sequence starts now and is a live binding until the
  ///   sequence terminates: when the iterating task is cancelled, or when the sequence and
  ///   its iterators are released (a `for await` loop over `values()` that ends releases
  ///   both). It ends at once when that happens on the main actor, and on the main actor's
  ///   next turn otherwise.
  ///
  /// - Parameter bufferingPolicy: What the sequence keeps while its consumer is behind.
  /// - Returns: A sequence that never finishes on its own.
  public func values(
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .bufferingNewest(1)
  ) -> AsyncStream<Value> {
    var continuation: AsyncStream<Value>.Continuation?
    let stream = AsyncStream(Value.self, bufferingPolicy: bufferingPolicy) {
      continuation = $0
    }
    guard let continuation else { return stream }
    let lifetime = observe { continuation.yield($0) }
    continuation.onTermination = { _ in
      MainActorCheck.run { lifetime.cancel() }
    }
    return stream
  }
}
