public import AirframeBinding
public import Testing

/// A trait that fails a test which leaves a binding alive or lets a render emit input.
///
/// Apply it to a suite to check every test in it:
///
/// ```swift
/// @Suite(.noLiveBindings)
/// @MainActor
/// struct TitleFieldTests {
///   @Test func rendersTitle() { ... }
/// }
/// ```
///
/// ## Guarantees
/// - Each test case runs with a fresh `BindingLedger` as the current ledger, so it counts
///   only the lifetimes that test created, even while other tests run in parallel.
/// - After the test body returns, the check gives pending main-actor work (deinits
///   released off the main actor, scheduled re-reads) a bounded number of turns to finish,
///   then records an issue for every binding still live and every echo counted.
public struct NoLiveBindingsTrait: TestTrait, SuiteTrait, TestScoping {
  /// Applies to every test of a suite it is attached to.
  public var isRecursive: Bool { true }

  /// Runs the test with a fresh ledger, then checks it.
  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    guard testCase != nil else {
      try await function()
      return
    }
    let ledger = await BindingLedger(name: test.name)
    try await BindingLedger.$current.withValue(ledger) {
      try await function()
    }
    await LiveBindingCheck.verify(ledger)
  }
}

extension Trait where Self == NoLiveBindingsTrait {
  /// Fails a test that ends with a live binding or a counted render echo.
  public static var noLiveBindings: Self { NoLiveBindingsTrait() }
}

/// Checks a ledger for leftover bindings and echoes.
@MainActor
public enum LiveBindingCheck {
  /// Runs `body` with a fresh ledger and records an issue if it leaves a binding alive
  /// or a render emitted input.
  ///
  /// - Parameters:
  ///   - name: A name for the ledger, shown in failures.
  ///   - sourceLocation: Where to report a failure; the caller's location by default.
  ///   - body: The code to check.
  /// - Returns: What `body` returns.
  public static func run<Result>(
    _ name: String = "check",
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Result
  ) async rethrows -> Result {
    let ledger = BindingLedger(name: name)
    let result = try await ledger.withCurrent(body)
    await verify(ledger, sourceLocation: sourceLocation)
    return result
  }

  /// Records an issue if `ledger` still counts a live binding or counted an echo.
  ///
  /// Gives pending main-actor work a bounded number of turns to finish first.
  ///
  /// - Parameters:
  ///   - ledger: The ledger a test ran under.
  ///   - sourceLocation: Where to report a failure; the caller's location by default.
  public static func verify(
    _ ledger: BindingLedger,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    // Deinits of lifetimes released off the main actor run on one of its later turns.
    var turns = 0
    while ledger.liveCount > 0, turns < 200 {
      if turns < 100 {
        await Task.yield()
      } else {
        try? await Task.sleep(for: .milliseconds(1))
      }
      turns += 1
    }
    if ledger.liveCount != 0 {
      Issue.record(
        "\(ledger.liveCount) binding(s) still live at the end of '\(ledger.name)'",
        sourceLocation: sourceLocation)
    }
    if ledger.echoCount != 0 {
      Issue.record(
        "\(ledger.echoCount) input(s) sent while rendering in '\(ledger.name)'",
        sourceLocation: sourceLocation)
    }
  }
}
