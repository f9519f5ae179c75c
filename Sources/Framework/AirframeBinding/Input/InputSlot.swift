/// The outlet through which a control reports what the user did.
///
/// A control owns its slots and calls ``send(_:)`` when the user acts. A binder installs
/// the one handler that turns that input into an intent. Ownership is by token:
///
/// ```swift
/// let field = TextField()               // owns `edits: InputSlot<String>`
/// let first = field.edits.install { model.rename($0) }
/// let second = field.edits.install { other.rename($0) }   // replaces `first`
/// first.cancel()                        // does nothing: `second` stays installed
/// ```
///
/// ## Guarantees
/// - At most one handler is installed. `install` returns a lifetime owned by the
///   installer; cancelling it removes that handler and only that handler.
/// - A second `install` replaces the first handler, visibly: the first installer's
///   lifetime is cancelled (its `isCancelled` becomes true) and `replacementCount` grows.
///   Cancelling an older, replaced token never removes a newer handler.
/// - `send` delivers user input synchronously to the installed handler, or drops it when
///   none is installed.
/// - Input sent while a render is in progress (`Rendering.isActive`) is an echo: dropped,
///   counted in `echoCount` and by the current `BindingLedger`.
@MainActor
public final class InputSlot<Input> {
  /// The installed handler and its owner's token; the lifetime target of every token.
  private final class Installation: LifetimeTarget {
    var handler: ((Input) -> Void)?
    weak var owner: Lifetime?
    var number = 0

    override func lifetimeDidEnd(handle: Int) {
      guard handle == number else { return }
      handler = nil
      owner = nil
    }
  }

  private let installation = Installation()

  /// The number of times an installed handler was replaced by a new one.
  public private(set) var replacementCount = 0

  /// The number of inputs dropped because they were sent while rendering.
  public private(set) var echoCount = 0

  /// Creates an empty slot.
  public init() {}

  /// Whether a handler is installed.
  public var isOccupied: Bool { installation.handler != nil }

  /// Installs `handler`, replacing and cancelling any handler installed before.
  ///
  /// - Parameter handler: Receives each user input.
  /// - Returns: The installer's token; cancelling it removes this handler only.
  public func install(_ handler: @escaping (Input) -> Void) -> Lifetime {
    let previous = installation.owner
    installation.number += 1
    installation.handler = handler
    let lifetime = Lifetime(target: installation, handle: installation.number)
    installation.owner = lifetime
    if let previous {
      replacementCount += 1
      previous.cancel()
    }
    return lifetime
  }

  /// Delivers user input to the installed handler.
  ///
  /// - Parameter input: What the user did.
  /// - Returns: `true` if a handler received the input; `false` if none is installed or
  ///   the input was sent while rendering (an echo).
  @discardableResult
  public func send(_ input: Input) -> Bool {
    if Rendering.isActive {
      echoCount += 1
      (BindingLedger.current ?? BindingLedger.shared).echoCaught(
        description: "\(Input.self) input \(input)")
      return false
    }
    guard let handler = installation.handler else { return false }
    handler(input)
    return true
  }
}
