/// Checks that every registered presentation has rendered the model's latest revision.
///
/// Register each View State Controller, or any presentation with a closure that reports the
/// revision it last rendered:
///
/// ```swift
/// let check = ConsistencyCheck(model: model)
/// check.register("note list", noteList)            // a ListLens or any ViewStateController
/// check.register("pane") { pane.renderedRevision }
/// try model.write { … }
/// // after delivery: check.mismatches is empty if everyone rendered the new revision
/// ```
///
/// ## Guarantees
///
/// - After each commit has been delivered (the check runs as a scheduled job, so every
///   synchronous observer has finished), each registered presentation's rendered revision
///   is compared with the model's; every presentation that disagrees is recorded as a
///   mismatch. ``verify()`` runs the same comparison on demand.
/// - Any ``ViewStateController`` can be registered, ``ListLens`` included: each reports
///   the latest commit it applied, whether or not that commit changed its output, so a
///   commit that leaves a list as it was is no false mismatch.
/// - The check only reads; it never writes to the model or to a presentation.
@MainActor
public final class ConsistencyCheck<State> {
  /// A presentation that did not show the model's revision.
  public struct Mismatch: Equatable, Sendable, CustomStringConvertible {
    /// The presentation's name.
    public let name: String
    /// The revision it reported.
    public let renderedRevision: Int
    /// The model's revision at the check.
    public let modelRevision: Int

    /// A readable line, such as `sidebar rendered revision 3, the model is at 4`.
    public var description: String {
      "\(name) rendered revision \(renderedRevision), the model is at \(modelRevision)"
    }
  }

  private let model: Model<State>
  private let scheduler: any WorkScheduler
  private var presentations: [(name: String, revision: () -> Int)] = []
  private var observation: Lifetime?

  /// Every mismatch found after a commit, oldest first.
  public private(set) var mismatches: [Mismatch] = []
  /// The number of commits checked.
  public private(set) var checkedCommits = 0

  /// Creates a check that runs after every commit of `model`.
  ///
  /// - Parameters:
  ///   - model: The model whose revision is the reference.
  ///   - scheduler: Where the after-delivery check runs; a main-actor task by default.
  public init(model: Model<State>, scheduler: any WorkScheduler = .mainActor) {
    self.model = model
    self.scheduler = scheduler
    observation = model.observeCommits { [weak self] _ in self?.scheduleCheck() }
  }

  /// Adds a presentation to the check.
  ///
  /// - Parameters:
  ///   - name: The presentation's name in mismatch reports.
  ///   - renderedRevision: The model revision it last rendered.
  public func register(_ name: String, renderedRevision: @escaping () -> Int) {
    presentations.append((name, renderedRevision))
  }

  /// Adds a View State Controller to the check; the check does not keep it alive, and a
  /// released controller is no longer compared.
  ///
  /// - Parameters:
  ///   - name: The controller's name in mismatch reports.
  ///   - controller: A controller that reports its rendered revision, such as a
  ///     ``ListLens``.
  public func register(_ name: String, _ controller: some ViewStateController) {
    let model = model
    register(name) { [weak controller] in controller?.renderedRevision ?? model.revision }
  }

  /// Compares every presentation with the model now.
  ///
  /// - Returns: The presentations that disagree; empty when all agree.
  public func verify() -> [Mismatch] {
    let revision = model.revision
    return presentations.compactMap { presentation in
      let rendered = presentation.revision()
      return rendered == revision
        ? nil
        : Mismatch(name: presentation.name, renderedRevision: rendered, modelRevision: revision)
    }
  }

  /// Stops checking after commits.
  public func cancel() {
    observation?.cancel()
  }

  private func scheduleCheck() {
    scheduler.schedule { [weak self] in
      guard let self else { return }
      checkedCommits += 1
      mismatches += verify()
    }
  }
}
