/// A View State Controller that says which model revision its presentation reflects, so a
/// ``ConsistencyCheck`` can compare it with the model.
///
/// ## Guarantees a conformer keeps
///
/// - ``renderedRevision`` is the latest model revision whose commit the controller has
///   applied, *whether or not that commit changed what it shows*: a commit that leaves
///   its output as it was still moves it. After a commit has been delivered, every
///   controller that follows the model reports the model's revision.
/// - It only reads: reporting a revision never writes the model or the output.
@MainActor
public protocol ViewStateController: AnyObject {
  /// The latest model revision the controller's output reflects.
  var renderedRevision: Int { get }
}

extension ListLens: ViewStateController {
  /// The latest model revision the rows reflect, whether or not that commit changed a
  /// listed row; ``revision`` moves only with a published update.
  public var renderedRevision: Int { appliedRevision }
}
