/// Checks that every registered presentation shows the model's latest revision, and that
/// what each View State Controller shows is what the model says it should show.
///
/// Register each View State Controller, or any presentation with closures that report the
/// revision it last rendered and, optionally, how its content differs from the model:
///
/// ```swift
/// let check = ConsistencyCheck(model: model)
/// check.register("note list", noteList)            // a ListLens or any ViewStateController
/// check.register("pane", renderedRevision: { pane.renderedRevision })
/// try model.write(origin: .background("import")) { … }
/// // after delivery: check.mismatches is empty if everyone shows the new revision, right
/// ```
///
/// ## Guarantees
///
/// - After each commit has been delivered (the check runs as a scheduled job, so every
///   synchronous observer has finished), each registered presentation is checked and
///   every one that fails is recorded as a mismatch. ``verify()`` runs the same checks on
///   demand.
/// - Revision: a presentation that reports another revision than the model's is
///   ``Mismatch/Problem-swift.enum/behind(renderedRevision:)``.
/// - Content: a View State Controller at the model's revision is asked for its
///   ``ViewStateController/differenceFromModel()``, a recomputation of its output from the
///   model, independent of how it updates; any difference is
///   ``Mismatch/Problem-swift.enum/differs(_:)``. So a controller that applied every
///   commit but drifted (a missed row, a stale count) is caught, not only one that
///   skipped a commit.
/// - A registered controller that has been released is
///   ``Mismatch/Problem-swift.enum/released``, never passed: a presentation that lost its
///   controller shows nothing the model says. The check does not keep controllers alive;
///   ``unregister(_:)`` removes one that is meant to go.
/// - The check only reads; it never writes to the model or to a presentation.
@MainActor
public final class ConsistencyCheck<State> {
  /// A presentation that does not show what the model says.
  public struct Mismatch: Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with a presentation.
    public enum Problem: Equatable, Sendable {
      /// It reflects another revision than the model's.
      case behind(renderedRevision: Int)
      /// It reflects the model's revision, but its output differs from a recomputation.
      case differs(String)
      /// Its controller was released while registered.
      case released
    }

    /// The presentation's name.
    public let name: String
    /// What is wrong.
    public let problem: Problem
    /// The model's revision at the check.
    public let modelRevision: Int

    /// A readable line, such as `sidebar rendered revision 3, the model is at 4`.
    public var description: String {
      switch problem {
      case .behind(let rendered):
        "\(name) rendered revision \(rendered), the model is at \(modelRevision)"
      case .differs(let difference):
        "\(name) at revision \(modelRevision) differs from the model: \(difference)"
      case .released: "\(name) was released while registered (the model is at \(modelRevision))"
      }
    }
  }

  /// One registered presentation: its checks, or `nil` once its controller is gone.
  private struct Presentation {
    let name: String
    let probe: () -> Probe?
  }

  /// What a presentation reports at a check.
  private struct Probe {
    let renderedRevision: Int
    let difference: () -> String?
  }

  private let model: Model<State>
  private let scheduler: any WorkScheduler
  private var presentations: [Presentation] = []
  private var observation: Lifetime?

  /// Every mismatch found after a commit, oldest first.
  public private(set) var mismatches: [Mismatch] = []
  /// The number of commits checked.
  public private(set) var checkedCommits = 0

  /// Creates a check that runs after every commit of `model`.
  ///
  /// - Parameters:
  ///   - model: The model whose revision and state are the reference.
  ///   - scheduler: Where the after-delivery check runs; a main-actor task by default.
  public init(model: Model<State>, scheduler: any WorkScheduler = .mainActor) {
    self.model = model
    self.scheduler = scheduler
    observation = model.observeCommits { [weak self] _ in self?.scheduleCheck() }
  }

  /// Adds a presentation that is not a View State Controller to the check.
  ///
  /// - Parameters:
  ///   - name: The presentation's name in mismatch reports.
  ///   - renderedRevision: The model revision it last rendered.
  ///   - difference: How what it shows differs from the model now, or `nil` when it
  ///     agrees; checks only the revision when left out.
  public func register(
    _ name: String, renderedRevision: @escaping () -> Int,
    difference: @escaping () -> String? = { nil }
  ) {
    presentations.append(
      Presentation(name: name) {
        Probe(renderedRevision: renderedRevision(), difference: difference)
      })
  }

  /// Adds a View State Controller to the check, by revision and by content; the check
  /// does not keep it alive, and reports it if it is released while registered.
  ///
  /// - Parameters:
  ///   - name: The controller's name in mismatch reports.
  ///   - controller: A controller such as a ``ListLens``.
  public func register(_ name: String, _ controller: some ViewStateController) {
    presentations.append(
      Presentation(name: name) { [weak controller] in
        guard let controller else { return nil }
        return Probe(
          renderedRevision: controller.renderedRevision,
          difference: { [weak controller] in controller?.differenceFromModel() })
      })
  }

  /// Removes every presentation registered as `name`.
  ///
  /// - Parameter name: The name it was registered with.
  public func unregister(_ name: String) {
    presentations.removeAll { $0.name == name }
  }

  /// Checks every presentation against the model now.
  ///
  /// - Returns: The presentations that disagree; empty when all agree.
  public func verify() -> [Mismatch] {
    let revision = model.revision
    return presentations.compactMap { presentation in
      let problem: Mismatch.Problem
      if let probe = presentation.probe() {
        if probe.renderedRevision != revision {
          problem = .behind(renderedRevision: probe.renderedRevision)
        } else if let difference = probe.difference() {
          problem = .differs(difference)
        } else {
          return nil
        }
      } else {
        problem = .released
      }
      return Mismatch(name: presentation.name, problem: problem, modelRevision: revision)
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
