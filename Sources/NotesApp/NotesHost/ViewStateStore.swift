public import Foundation
public import NotesPresentation

/// What one window (or the terminal app) showed when it closed: its view state and, for a
/// window, its size.
public struct SavedWindow: Codable, Equatable, Sendable {
  /// The session's view state: notebook, search, order, note.
  public var view: SavedViewState
  /// The window's width and height in pixels; `nil` for the terminal app.
  public var size: Size?
  /// Whether the window was maximized.
  public var isMaximized: Bool

  /// A window's size in pixels.
  public struct Size: Codable, Equatable, Sendable {
    /// The width.
    public var width: Int
    /// The height.
    public var height: Int

    /// Creates a size.
    ///
    /// - Parameters:
    ///   - width: The width in pixels.
    ///   - height: The height in pixels.
    public init(width: Int, height: Int) {
      self.width = width
      self.height = height
    }
  }

  /// Creates a saved window.
  ///
  /// - Parameters:
  ///   - view: The session's view state.
  ///   - size: The window's size; `nil` for the terminal app.
  ///   - isMaximized: Whether the window was maximized.
  public init(view: SavedViewState, size: Size? = nil, isMaximized: Bool = false) {
    self.view = view
    self.size = size
    self.isMaximized = isMaximized
  }
}

/// Where the programs keep what their windows showed, to show it again at the next launch.
///
/// One JSON file of the user's state, `$XDG_STATE_HOME/airframe-notes/windows.json` (or
/// `~/.local/state/airframe-notes/windows.json`), holding for each library file and each
/// program ("terminal", "desktop") the windows it had open, oldest first; the entries of
/// the most recently saved libraries only, so the file stays small however many libraries
/// were ever opened.
///
/// ```swift
/// let store = ViewStateStore.standard()
/// let windows = store.windows(of: "desktop", library: library.path)   // at launch
/// store.save(openWindows, of: "desktop", library: library.path)      // at quit
/// ```
///
/// ## Guarantees
///
/// - View state stays out of the library: nothing here is written to the library file, so
///   nothing of it syncs or reaches another device.
/// - A missing, unreadable or malformed file reads as nothing saved: the program starts as
///   it would the first time, never fails to start because of it.
/// - Saving replaces the file whole (written aside, then renamed), keeping the entries of
///   other libraries and programs; a save that cannot be written is dropped quietly, since
///   what a window showed is a convenience, not the user's data. Two programs quitting at
///   the same moment may each keep their own entry or the last one's: the file has no lock.
public struct ViewStateStore: Sendable {
  /// The file.
  public let path: String

  /// A store in the file at `path`.
  ///
  /// - Parameter path: The file.
  public init(path: String) {
    self.path = path
  }

  /// The user's store: under `$XDG_STATE_HOME` when it is an absolute path, else under
  /// `$HOME/.local/state`.
  ///
  /// - Parameter environment: The process's environment.
  /// - Returns: The store.
  public static func standard(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> ViewStateStore {
    let state: String
    if let configured = environment["XDG_STATE_HOME"], configured.hasPrefix("/") {
      state = configured
    } else {
      let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
      state = home + "/.local/state"
    }
    return ViewStateStore(path: state + "/airframe-notes/windows.json")
  }

  /// How many entries (a library and a program each) the file keeps, the latest saved.
  public static let entryLimit = 64

  /// One program's windows on one library.
  private struct Entry: Codable {
    var library: String
    var program: String
    var windows: [SavedWindow]
  }

  /// The windows `program` had open on `library` when it last quit; none when nothing was
  /// saved or the file cannot be read.
  ///
  /// - Parameters:
  ///   - program: The program, such as "desktop" or "terminal".
  ///   - library: The library file's path.
  /// - Returns: The windows, oldest first.
  public func windows(of program: String, library: String) -> [SavedWindow] {
    read().last { $0.library == library && $0.program == program }?.windows ?? []
  }

  /// Saves the windows `program` has open on `library`, replacing what it saved before.
  ///
  /// - Parameters:
  ///   - windows: The windows, oldest first; none forgets the entry.
  ///   - program: The program, such as "desktop" or "terminal".
  ///   - library: The library file's path.
  public func save(_ windows: [SavedWindow], of program: String, library: String) {
    var entries = read().filter { $0.library != library || $0.program != program }
    if !windows.isEmpty {
      entries.append(Entry(library: library, program: program, windows: windows))
    }
    entries = Array(entries.suffix(Self.entryLimit))
    let file = URL(fileURLWithPath: path)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    guard let data = try? encoder.encode(entries) else { return }
    try? FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try? data.write(to: file, options: .atomic)
  }

  /// The entries, the latest saved last; none when the file is missing or malformed.
  private func read() -> [Entry] {
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    return (try? JSONDecoder().decode([Entry].self, from: data)) ?? []
  }
}
