public import Airframe

/// One command in the menu.
public struct CommandRow: Equatable, Sendable, Identifiable {
  /// The command's name, such as "New Note".
  public let id: String
  /// The key that runs it, such as "n".
  public let shortcut: String
  /// Whether it can run now, and if not, why.
  public let availability: Availability

  /// The command's name.
  public var name: String { id }
}

/// The command palette's View State Controller.
///
/// ## Guarantees
///
/// - A lens over the commands' availabilities (each an `ActionController`'s or any state
///   source): it never dispatches anything itself.
/// - Rows keep the order commands were added; a row changes exactly when its command's
///   availability changes, and equal menus are not delivered again.
/// - The availability a menu row shows is the same value the toolbar and the shortcut of
///   that command read: one source of truth per command.
@MainActor
@_spi(Instrumentation) public final class CommandMenuController {
  private let rowsSource = StateSource<[CommandRow]>([])
  private let bag = LifetimeBag(label: "CommandMenuController")

  /// Creates an empty menu.
  public init() {}

  /// The commands, in the order they were added.
  public var rows: some StateProjection<[CommandRow]> { rowsSource }

  /// Adds a command whose availability comes from `availability`.
  ///
  /// - Parameters:
  ///   - name: The command's name; unique in the menu.
  ///   - shortcut: The key that runs it.
  ///   - availability: Its availability, shared with every other place that shows it.
  public func add(
    _ name: String,
    shortcut: String,
    availability: some StateProjection<Availability>
  ) {
    let index = rowsSource.value.count
    rowsSource.update {
      $0.append(CommandRow(id: name, shortcut: shortcut, availability: availability.value))
    }
    availability.observe { [weak self] value in
      guard let self, rowsSource.value[index].availability != value else { return }
      rowsSource.update {
        $0[index] = CommandRow(id: name, shortcut: shortcut, availability: value)
      }
    }.store(in: bag)
  }

  /// Stops following the commands.
  public func cancel() { bag.cancelAll() }
}
