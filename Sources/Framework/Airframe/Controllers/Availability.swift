/// Whether a command can run now, and if not, why; shared by its menu item, toolbar
/// button and shortcut.
public struct Availability: Equatable, Sendable {
  /// The issues that make the command unavailable; empty when it is enabled.
  public let issues: [ValidationIssue]

  /// An enabled command.
  public static let enabled = Availability(issues: [])

  /// A command disabled for `reason`.
  ///
  /// - Parameter reason: A sentence for a tooltip or a status bar.
  /// - Returns: The availability.
  public static func disabled(_ reason: String) -> Availability {
    Availability(issues: [ValidationIssue(field: "command", message: reason)])
  }

  /// Creates an availability from a validation result.
  ///
  /// - Parameter result: Empty means enabled.
  public init(_ result: ValidationResult) { self.issues = result.issues }

  private init(issues: [ValidationIssue]) { self.issues = issues }

  /// Whether the command can run.
  public var isEnabled: Bool { issues.isEmpty }

  /// Why the command is disabled, or `nil` when it is enabled.
  public var reason: String? { issues.first?.message }
}
