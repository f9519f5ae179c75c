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
///
/// ## Guarantees
/// - ``bind(_:)`` first cancels every connection of the previous binding (both
///   directions), then makes the new ones: a rebound reusable row never gets a value
///   from, or sends input to, the model it showed before.
/// - Each render runs inside ``Rendering/perform(_:)``, so input a control emits while
///   rendering is dropped and counted as an echo instead of reaching an intent.
/// - Renders happen synchronously: the replay while binding, and each later value.
/// - ``cancel()`` stops both directions at once, and so does releasing the binder.
/// - Cancelling or rebinding from inside any callback the binder owns, the replay of a
///   render included, takes effect at once: every connection is registered with the
///   binder *before* its replay runs, so nothing more is rendered or forwarded through
///   the old connections. Connections that an outdated `bind` call goes on making after
///   such a cancel or rebind are never made (an input handler is not installed, so it
///   cannot replace the newer binding's handler).
@MainActor
public final class Binder {
  private let connections: LifetimeBag
  /// Grows with every `bind` and `cancel`; a `Connections` value made for an older
  /// generation makes nothing.
  private var generation = 0

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
  /// The old connections are cancelled before `connect` runs. Called from inside one of
  /// this binder's renders, it ends the binding that render belongs to first.
  ///
  /// - Parameter connect: Makes the new connections; renders replay synchronously.
  public func bind(_ connect: (inout Connections) -> Void) {
    generation += 1
    connections.cancelAll()
    var builder = Connections(binder: self, generation: generation)
    connect(&builder)
  }

  /// Ends every connection, in both directions, at once, even from inside a render.
  public func cancel() {
    generation += 1
    connections.cancelAll()
  }

  /// The connections one call to ``Binder/bind(_:)`` makes.
  ///
  /// Once the binder is rebound or cancelled, a `Connections` value from an earlier call
  /// makes nothing: its renders do not start, its inputs are not installed, and the
  /// lifetimes handed to ``own(_:)`` are cancelled.
  @MainActor
  public struct Connections {
    fileprivate let binder: Binder
    fileprivate let generation: Int

    /// Whether the binding this value belongs to is still the binder's current one.
    public var isCurrent: Bool { binder.generation == generation }

    /// Renders `projection` now and on every later value, as a silent render.
    ///
    /// - Parameters:
    ///   - projection: The state to show.
    ///   - render: Pushes a value into the control; must not emit input.
    public mutating func render<Projection: StateProjection>(
      _ projection: Projection,
      with render: @escaping (Projection.Value) -> Void
    ) {
      connect(render) { projection.observe($0) }
    }

    /// Presents every pending outcome now and each new one as it is posted, as a silent
    /// render.
    ///
    /// The outcome stays pending until somebody acknowledges it, typically the user's
    /// answer through an intent; a rebound or cancelled binder presents nothing more.
    ///
    /// - Parameters:
    ///   - outcomes: The durable outcomes to show.
    ///   - render: Presents one outcome; must not emit input.
    public mutating func render<Outcome>(
      _ outcomes: DurableOutcomes<Outcome>,
      with render: @escaping (Outcome) -> Void
    ) {
      connect(render) { outcomes.observe($0) }
    }

    /// Presents every pending outcome now and each new one as it is posted, through an
    /// owner's read-only view of them, as a silent render.
    ///
    /// - Parameters:
    ///   - outcomes: The read-only view of the durable outcomes to show.
    ///   - render: Presents one outcome; must not emit input.
    public mutating func render<Outcome>(
      _ outcomes: PendingOutcomes<Outcome>,
      with render: @escaping (Outcome) -> Void
    ) {
      connect(render) { outcomes.observe($0) }
    }

    /// Renders the list of pending outcomes now and again after every post and
    /// acknowledgement, as a silent render.
    ///
    /// Beside the render of each outcome as it is posted, it lets a view that presents each
    /// outcome (a dialog) dismiss one that was answered elsewhere: in another window or
    /// view, or withdrawn by its owner.
    ///
    /// - Parameters:
    ///   - outcomes: The read-only view of the durable outcomes.
    ///   - render: Shows the pending outcomes, oldest first; must not emit input.
    public mutating func render<Outcome>(
      pending outcomes: PendingOutcomes<Outcome>,
      with render: @escaping ([Outcome]) -> Void
    ) {
      connect(render) { outcomes.observePending($0) }
    }

    /// Shows each transient event sent from now on, as a silent render.
    ///
    /// - Parameters:
    ///   - events: The channel to follow.
    ///   - render: Shows one event; must not emit input.
    public mutating func render<Event>(
      _ events: EventChannel<Event>,
      with render: @escaping (Event) -> Void
    ) {
      connect(render) { events.observe($0) }
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
      guard isCurrent else { return }
      slot.install(intent).store(in: binder.connections)
    }

    /// Makes `lifetime` part of this binding, ending with it.
    ///
    /// - Parameter lifetime: Any other connection, such as an event observation. It is
    ///   cancelled at once if this binding has already ended.
    public mutating func own(_ lifetime: Lifetime) {
      guard isCurrent else {
        lifetime.cancel()
        return
      }
      lifetime.store(in: binder.connections)
    }

    /// Registers a connection with the binder, then starts it: the replay runs after the
    /// registration, so a replay that cancels or rebinds ends this connection as well.
    private func connect<Value>(
      _ render: @escaping (Value) -> Void,
      observe: (@escaping (Value) -> Void) -> Lifetime
    ) {
      guard isCurrent else { return }
      _ = Lifetime.linked(storedIn: binder.connections) { lifetime in
        observe { [weak lifetime] value in
          guard let lifetime, !lifetime.isCancelled else { return }
          Rendering.perform { render(value) }
        }
      }
    }
  }
}
