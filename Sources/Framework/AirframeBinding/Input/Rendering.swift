/// The span in which a binder pushes state into a control, during which no user input
/// may be emitted.
///
/// Binders wrap every render in ``perform(_:)``. A control that reacts to a programmatic
/// change by emitting input (the classic feedback loop) is caught there: the input is
/// dropped and counted as an echo, so a test can assert that rendering emitted nothing.
///
/// ## Guarantees
/// - `Rendering.perform` marks its body as rendering, nested calls included.
/// - Any `InputSlot.send` made while rendering is an echo: it is dropped, never reaches a
///   handler, and is counted by the current `BindingLedger` (which traps in debug builds
///   unless its policy is `.count`).
@MainActor
public enum Rendering {
  private static var depth = 0

  /// Whether a render is in progress.
  public static var isActive: Bool { depth > 0 }

  /// Runs `body` as a render.
  ///
  /// - Parameter body: Pushes state into controls.
  /// - Returns: What `body` returns.
  @discardableResult
  public static func perform<Result>(_ body: () throws -> Result) rethrows -> Result {
    depth += 1
    defer { depth -= 1 }
    return try body()
  }
}
