public import Airframe

/// One command in the menu.
public struct CommandRow: Equatable, Sendable, Identifiable {
  /// The command's name, such as "New Note".
  public let id: String
  /// The key that runs it, such as "n".
  public let shortcut: String
  /// Whether it can run now, and if not, why.
  public let availability: Availability
  /// What a menu shows for it: its name, or a name that says more, such as "Undo Rename
  /// Note".
  public let label: String

  /// The command's name.
  public var name: String { id }

  /// A row; its label is its name unless given.
  public init(id: String, shortcut: String, availability: Availability, label: String? = nil) {
    self.id = id
    self.shortcut = shortcut
    self.availability = availability
    self.label = label ?? id
  }
}

/// The command palette's View State Controller.
///
/// ## Guarantees
///
/// - A lens over the commands' availabilities (each an `ActionController`'s or any state
///   source): it never dispatches anything itself.
/// - Rows keep the order commands were added; a row changes exactly when its command's
///   availability or label changes, and equal menus are not delivered again.
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
    let index = append(CommandRow(id: name, shortcut: shortcut, availability: availability.value))
    follow(availability, in: index) { row, value in
      CommandRow(id: name, shortcut: shortcut, availability: value, label: row.label)
    }
  }

  /// Adds a command whose availability comes from `availability`, and whose label says
  /// what it would do now, made from `source` (Undo's "Undo Rename Note").
  ///
  /// - Parameters:
  ///   - name: The command's name; unique in the menu.
  ///   - shortcut: The key that runs it.
  ///   - availability: Its availability, shared with every other place that shows it.
  ///   - source: What the label depends on.
  ///   - label: The label for a value of `source`.
  public func add<Source: StateProjection>(
    _ name: String,
    shortcut: String,
    availability: some StateProjection<Availability>,
    labelledBy source: Source,
    _ label: @escaping (Source.Value) -> String
  ) {
    let index = append(
      CommandRow(
        id: name, shortcut: shortcut, availability: availability.value,
        label: label(source.value)))
    follow(availability, in: index) { row, value in
      CommandRow(id: name, shortcut: shortcut, availability: value, label: row.label)
    }
    follow(source, in: index) { row, value in
      CommandRow(id: name, shortcut: shortcut, availability: row.availability, label: label(value))
    }
  }

  /// Appends `row`; returns its index.
  private func append(_ row: CommandRow) -> Int {
    let index = rowsSource.value.count
    rowsSource.update { $0.append(row) }
    return index
  }

  /// Replaces the row at `index` with `changed(row, value)` for each later value of
  /// `source`, when that makes a different row.
  private func follow<Source: StateProjection>(
    _ source: Source, in index: Int, _ changed: @escaping (CommandRow, Source.Value) -> CommandRow
  ) {
    source.observe { [weak self] value in
      guard let self else { return }
      let row = changed(rowsSource.value[index], value)
      guard row != rowsSource.value[index] else { return }
      rowsSource.update { $0[index] = row }
    }.store(in: bag)
  }

  /// Stops following the commands.
  public func cancel() { bag.cancelAll() }
}
