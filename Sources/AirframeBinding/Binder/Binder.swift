// Binder: connects projections to render functions and input slots to intents.
//
// Guarantees
// - `bind` first cancels every connection of the previous binding (both directions),
//   then installs the new ones: a rebound reusable row never gets a value from, or sends
//   input to, the model it showed before.
// - Each render runs inside `Rendering.perform`, so input a control emits while
//   rendering is dropped and counted as an echo instead of reaching an intent.
// - `cancel()` stops both directions at once; releasing the binder cancels.
// - Renders happen synchronously: the replay while binding, and each later value.

/// The owner of the connections between one control (or row, or screen) and its model.
///
/// ```swift
/// let binder = Binder()
/// binder.bind { connect in
///   connect.render(adapter.rows) { list.render($0) }
///   connect.forward(list.selection) { adapter.select($0) }
/// }
/// // Later, for a reused row: the old connections end before the new ones start.
/// binder.bind { connect in connect.render(otherAdapter.rows) { list.render($0) } }
/// binder.cancel()
/// ```
@MainActor
public final class Binder {
  private let connections: LifetimeBag

  /// Creates a binder with no connections.
  ///
  /// - Parameter label: The binder's name in the binding graph, such as `"title field"`.
  public init(label: String? = nil) {
    connections = LifetimeBag(label: label)
  }

  /// Whether any connection is live.
  public var isBound: Bool { connections.liveCount > 0 }

  /// Replaces the current connections with the ones `connect` makes.
  ///
  /// The old connections are cancelled before `connect` runs.
  ///
  /// - Parameter connect: Makes the new connections; renders replay synchronously.
  public func bind(_ connect: (inout Connections) -> Void) {
    connections.cancelAll()
    var builder = Connections(bag: connections)
    connect(&builder)
  }

  /// Ends every connection, in both directions.
  public func cancel() {
    connections.cancelAll()
  }

  /// The connections one call to ``Binder/bind(_:)`` makes.
  @MainActor
  public struct Connections {
    fileprivate let bag: LifetimeBag

    /// Renders `projection` now and on every later value, as a silent render.
    ///
    /// - Parameters:
    ///   - projection: The state to show.
    ///   - render: Pushes a value into the control; must not emit input.
    public mutating func render<Projection: StateProjection>(
      _ projection: Projection,
      with render: @escaping (Projection.Value) -> Void
    ) {
      projection.observe { value in Rendering.perform { render(value) } }.store(in: bag)
    }

    /// Sends each user input from `slot` to `intent`.
    ///
    /// - Parameters:
    ///   - slot: The control's input slot.
    ///   - intent: Turns the input into a request to the model or an adapter.
    public mutating func forward<Input>(
      _ slot: InputSlot<Input>,
      to intent: @escaping (Input) -> Void
    ) {
      slot.install(intent).store(in: bag)
    }

    /// Makes `lifetime` part of this binding, ending with it.
    ///
    /// - Parameter lifetime: Any other connection, such as an event observation.
    public mutating func own(_ lifetime: Lifetime) {
      lifetime.store(in: bag)
    }
  }
}
