import Airframe
import Foundation
import NotesCore
import NotesStorage
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What the window reported when it closed (`NOTES_DESKTOP_REPORT`).
struct WindowReport: Decodable, Equatable {
  struct Forwarded: Decodable, Equatable {
    var notebookChoices = 0
    var noteChoices = 0
    var bodyEdits = 0
    var cursorMoves = 0
    var titleCommits = 0
    var searchEdits = 0
  }
  var forwarded: Forwarded
  var droppedEchoes: Int
  var droppedPreviews: Int
  var liveBindings: Int
  var windowsOpened: Int
}

/// A desktop window under test.
///
/// One run of the built `notes-desktop` in a private X server (Xvfb) with a private D-Bus for
/// accessibility, driven with xdotool and read through AT-SPI.
///
/// ## Guarantees
///
/// - Everything is the test's own: a free display number, a D-Bus socket and a HOME in a
///   temporary folder; `close()` stops every program it started and removes the folder.
/// - Reads never race the window: `waitForTree` polls the accessible tree until a
///   condition holds (or records the last tree on a timeout).
/// - A warning is a failure: `close()` records an issue naming every warning or critical
///   GTK, GLib or GIO wrote to the window's standard error while the test ran (a critical is
///   a programming error GTK survived, such as a freed widget used), so no test passes with
///   one in its log.
@MainActor
final class DesktopSession {
  /// The temporary folder (HOME, the bus socket, logs).
  let folder: String
  /// The library file the window opens.
  let database: String
  private let display: Int
  private let xvfb: Spawned
  private let bus: Spawned
  private var app: Spawned?
  private let environment: [String: String]

  /// Where the tests find their programs.
  private static let path = "/usr/local/bin:/usr/bin:/bin"

  /// Starts the X server and the bus; the window starts with ``launch()``.
  ///
  /// - Parameter database: The library; a new one in the folder by default.
  /// - Throws: ``DesktopError`` when Xvfb or dbus-daemon does not start.
  init(database: String? = nil) throws {
    folder =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("notes-desktop-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    self.database = database ?? folder + "/notes.sqlite"
    display = try Self.freeDisplay()
    xvfb = try Spawned(
      "Xvfb", [":\(display)", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
      environment: ["PATH": Self.path], log: folder + "/xvfb.log")
    let socket = folder + "/bus"
    // A process group of its own: stopping it also stops the accessibility bus and
    // registry that D-Bus activation starts for the window.
    bus = try Spawned(
      "dbus-daemon", ["--session", "--nofork", "--address=unix:path=\(socket)"],
      environment: ["PATH": Self.path, "HOME": folder], log: folder + "/bus.log", group: true)
    environment = [
      "PATH": Self.path, "HOME": folder, "LANG": "C.UTF-8", "XDG_RUNTIME_DIR": folder,
      "DISPLAY": ":\(display)", "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(socket)",
      "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo",
      "NOTES_DESKTOP_REPORT": folder + "/report.json",
    ]
    guard Self.waitFor({ FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(display)") }),
      Self.waitFor({ FileManager.default.fileExists(atPath: socket) })
    else {
      close()
      throw DesktopError("Xvfb or dbus-daemon did not start:\n\(xvfb.output)\n\(bus.output)")
    }
  }

  /// Starts the window on the library and waits until it shows.
  ///
  /// - Parameter settings: Extra environment variables, such as a preview delay.
  /// - Throws: ``DesktopError`` when the program is not built or no window shows.
  func launch(_ settings: [String: String] = [:]) throws {
    guard let binary = Self.builtProgram("notes-desktop") else {
      throw DesktopError("notes-desktop is not built next to the tests")
    }
    app = try Spawned(
      binary, ["--database", database], environment: environment.merging(settings) { $1 },
      log: folder + "/app.log")
    _ = try xdotool(["search", "--sync", "--onlyvisible", "--name", "."])
  }

  /// Starts the window on a new library, which gets the six sample notes, and waits until
  /// its note list shows them.
  ///
  /// - Returns: The accessible tree as the window first showed the samples.
  /// - Throws: ``DesktopError`` when the program is not built or the samples never show.
  func launchOnSamples(sourceLocation: SourceLocation = #_sourceLocation) async throws
    -> AccessibleNode
  {
    try launch()
    let shown = try await waitForTree("the sample library", sourceLocation: sourceLocation) {
      $0.first("list", named: "Notes")?.rowLabels.count == 6
    }
    guard let shown else { throw DesktopError("the sample library never showed") }
    return shown
  }

  /// The library's notes now, read from the file through a connection of the test's own.
  func notes() throws -> [Note] {
    Array(try state().notes.elements)
  }

  /// The library now, read from the file through a connection of the test's own.
  func state() throws -> NotesState {
    let database = try NotesDatabase(path: database)
    defer { database.close() }
    return try database.loadState()
  }

  /// Waits until the window agrees with the library after `step` (see `disagreements`),
  /// recording what still differs after the timeout.
  @discardableResult
  func waitForAgreement(
    after step: String, search: String = "", sourceLocation: SourceLocation = #_sourceLocation,
    until condition: (AccessibleNode) -> Bool = { _ in true }
  ) async throws -> AccessibleNode? {
    var problems: [String] = []
    let tree = try await waitForTree(step, sourceLocation: sourceLocation) { tree in
      guard condition(tree), let state = try? self.state() else { return false }
      problems = disagreements(tree, state, search: search)
      return problems.isEmpty
    }
    if tree == nil, !problems.isEmpty {
      let lines = problems.joined(separator: "\n")
      Issue.record(
        "after \(step) the window disagrees with the library:\n\(lines)",
        sourceLocation: sourceLocation)
    }
    return tree
  }

  /// The window's accessible tree now.
  ///
  /// - Parameter arguments: What the reader does first, such as `["--caret", "Note text",
  ///   "12"]`.
  /// - Returns: The tree.
  /// - Throws: ``DesktopError`` when the reader fails.
  func tree(_ arguments: [String] = []) throws -> AccessibleNode {
    let reader = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("accessible-tree.py").path
    let (status, output) = try Spawned.run(
      "/usr/bin/python3", [reader, "notes-desktop"] + arguments, environment: environment,
      log: folder + "/tree.json")
    guard status == 0, let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") })
    else { throw DesktopError("the accessible tree could not be read (\(status)): \(output)") }
    return try JSONDecoder().decode(AccessibleNode.self, from: Data(line.utf8))
  }

  /// Polls the tree until `condition` holds; records the last tree and returns `nil` after
  /// `timeout`.
  func waitForTree(
    _ what: String, timeout: Duration = .seconds(10),
    sourceLocation: SourceLocation = #_sourceLocation,
    until condition: (AccessibleNode) -> Bool
  ) async throws -> AccessibleNode? {
    let deadline = ContinuousClock.now + timeout
    var last: AccessibleNode?
    var lastError: (any Error)?
    repeat {
      do {
        let tree = try tree()
        last = tree
        if condition(tree) { return tree }
      } catch {
        lastError = error
      }
      try await Task.sleep(for: .milliseconds(100))
    } while ContinuousClock.now < deadline
    let nodes: [AccessibleNode] = last?.all ?? []
    let shown = nodes.map { node in "\(node.role) \"\(node.name)\" \(node.text ?? "")" }
      .joined(separator: "\n")
    let failure = lastError.map { "\nthe last read failed: \($0)" } ?? ""
    Issue.record(
      "timed out waiting for \(what); the window showed:\n\(shown)\(failure)",
      sourceLocation: sourceLocation)
    return nil
  }

  /// Runs xdotool on the window's display.
  @discardableResult
  func xdotool(_ arguments: [String]) throws -> String {
    let (status, output) = try Spawned.run(
      "xdotool", arguments, environment: environment, log: folder + "/xdotool.log")
    guard status == 0 else { throw DesktopError("xdotool \(arguments) failed: \(output)") }
    return output
  }

  /// Clicks the middle of `node`, a node of the main window, or `offset` from its top left
  /// corner.
  func click(_ node: AccessibleNode, at offset: (x: Int, y: Int)? = nil) throws {
    guard let frame = node.frame, let centre = node.centre else {
      throw DesktopError("\(node.role) \"\(node.name)\" has no place on the screen")
    }
    let point = offset.map { (frame[0] + $0.x, frame[1] + $0.y) } ?? centre
    // The node's place is in its window's coordinates (see accessible-tree.py).
    try xdotool([
      "mousemove", "--sync", "--window", try windowID(), "\(point.0)", "\(point.1)", "click", "1",
    ])
  }

  /// Gives the keyboard focus to the window titled exactly `title` (Xvfb has no window
  /// manager to do it), waiting until it shows.
  func focus(windowTitled title: String) throws {
    let pattern = "^" + NSRegularExpression.escapedPattern(for: title) + "$"
    let id =
      try xdotool(["search", "--sync", "--onlyvisible", "--name", pattern])
      .split(separator: "\n").first.map(String.init) ?? ""
    try xdotool(["windowfocus", "--sync", id])
  }

  /// The X ids of the visible windows titled exactly `title`, oldest first.
  func windowIDs(titled title: String) throws -> [String] {
    let pattern = "^" + NSRegularExpression.escapedPattern(for: title) + "$"
    let (status, output) = try Spawned.run(
      "xdotool", ["search", "--onlyvisible", "--name", pattern], environment: environment,
      log: folder + "/xdotool.log")
    // xdotool exits 1 when nothing matches.
    guard status == 0 || status == 1 else { throw DesktopError("xdotool search failed: \(output)") }
    return output.split(separator: "\n").map(String.init).sorted {
      (Int($0) ?? 0) < (Int($1) ?? 0)
    }
  }

  /// Presses keys in the window with the X id `window`, after giving it the focus.
  func press(inWindow window: String, _ keys: String...) throws {
    try xdotool(["windowfocus", "--sync", window, "key", "--delay", "60"] + keys)
  }

  /// Gives the keyboard focus to the main window (the application's first frame).
  func focusMainWindow() throws {
    guard let title = try tree().children?.first(where: { $0.role == "frame" })?.name else {
      throw DesktopError("the window has no frame")
    }
    try focus(windowTitled: title)
  }

  /// Presses keys (xdotool names, such as `ctrl+shift+n`) in the focused window.
  func press(_ keys: String...) throws {
    try xdotool(["key", "--delay", "60"] + keys)
  }

  /// Types `text` with real key events into the focused widget.
  func type(_ text: String) throws {
    try xdotool(["type", "--delay", "40", text])
  }

  /// Saves a picture of the window as PNG (ImageMagick's `import`).
  func screenshot(to path: String) throws {
    let (status, output) = try Spawned.run(
      "import", ["-window", try windowID(), path], environment: environment,
      log: folder + "/import.log")
    guard status == 0 else { throw DesktopError("import failed (\(status)): \(output)") }
  }

  /// The size of a window (the main window by default) on the screen, as the X server has
  /// it.
  func windowSize(of window: String? = nil) throws -> (width: Int, height: Int) {
    let fields = try xdotool(["getwindowgeometry", "--shell", try window ?? windowID()])
      .split(separator: "\n").reduce(into: [String: Int]()) { fields, line in
        let parts = line.split(separator: "=", maxSplits: 1)
        if parts.count == 2 { fields[String(parts[0])] = Int(parts[1]) }
      }
    guard let width = fields["WIDTH"], let height = fields["HEIGHT"] else {
      throw DesktopError("xdotool gave no window size")
    }
    return (width, height)
  }

  /// The X id of the main window: the oldest visible one.
  func windowID() throws -> String {
    guard
      let id = try xdotool(["search", "--onlyvisible", "--name", "."]).split(separator: "\n")
        .min(by: { (Int($0) ?? 0) < (Int($1) ?? 0) })
    else { throw DesktopError("no window is visible") }
    return String(id)
  }

  /// Quits with Ctrl-Q (or `keys`: Ctrl-W in the last window) and returns what the window
  /// reported.
  func quit(with keys: String = "ctrl+q") async throws -> WindowReport {
    try xdotool(["windowfocus", "--sync", try windowID(), "key", keys])
    guard let app else { throw DesktopError("the window was not launched") }
    guard Self.waitFor({ !app.isRunning }) else {
      throw DesktopError("notes-desktop did not quit on \(keys):\n\(app.output)")
    }
    let status = app.wait()
    guard status == 0 else { throw DesktopError("notes-desktop exited \(status):\n\(app.output)") }
    let report = try Data(contentsOf: URL(fileURLWithPath: folder + "/report.json"))
    return try JSONDecoder().decode(WindowReport.self, from: report)
  }

  /// The warnings and criticals GLib logged in the window's output so far (GTK's, GLib's,
  /// GIO's: `Gtk-CRITICAL **`, `GLib-GIO-WARNING **`, `** (notes-desktop:…): WARNING **`).
  var toolkitWarnings: [String] {
    guard let app else { return [] }
    return app.output.split(separator: "\n").map(String.init).filter(isToolkitWarning)
  }

  /// Stops every program it started, records an issue for each warning the window logged
  /// (see ``toolkitWarnings``), and removes the folder.
  func close(sourceLocation: SourceLocation = #_sourceLocation) {
    app?.stop()
    let warnings = toolkitWarnings
    if !warnings.isEmpty {
      Issue.record(
        "the window logged \(warnings.count) GTK warning(s):\n\(warnings.joined(separator: "\n"))",
        sourceLocation: sourceLocation)
    }
    bus.stop()
    xvfb.stop()
    try? FileManager.default.removeItem(atPath: folder)
  }

  // MARK: - Helpers

  private static func freeDisplay() throws -> Int {
    for number in 90..<190
    where !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
      && !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
    {
      return number
    }
    throw DesktopError("no free X display number")
  }

  private static func waitFor(_ condition: () -> Bool) -> Bool {
    for _ in 0..<250 {
      if condition() { return true }
      usleep(20_000)
    }
    return condition()
  }

  static func builtProgram(_ name: String) -> String? {
    guard let runner = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    else { return nil }
    var folder = URL(fileURLWithPath: runner).deletingLastPathComponent()
    for _ in 0..<3 {
      let candidate = folder.appendingPathComponent(name).path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      folder.deleteLastPathComponent()
    }
    return nil
  }
}

/// Whether a line of a program's output is a warning, critical or error that GLib logged:
/// `(program:pid): Domain-LEVEL **: …` for a log domain (Gtk, GLib, GLib-GObject, GLib-GIO),
/// `** (program:pid): LEVEL **: …` without one.
///
/// - Parameter line: One line of output.
/// - Returns: `true` for a warning, a critical or an error.
func isToolkitWarning(_ line: String) -> Bool {
  ["WARNING **", "CRITICAL **", "ERROR **"].contains { line.contains($0) }
}

/// Why a desktop test could not go on.
struct DesktopError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

extension DesktopSession {
  /// A menu item as the menu bar shows it: its label (with the reason beside a disabled
  /// one) and whether it can be chosen.
  struct MenuItem: Equatable, CustomStringConvertible {
    var label: String
    var isEnabled: Bool
    var description: String { "\(label)\(isEnabled ? "" : " [disabled]")" }
  }

  /// The items of the menu bar's menu `title`, read by opening it and closing it again.
  ///
  /// - Parameter title: The menu's title, such as "Edit".
  /// - Returns: Its items, in order.
  /// - Throws: `DesktopError` if the menu is not there, or does not open or close.
  func menuItems(_ title: String) async throws -> [MenuItem] {
    let shown = try tree()
    guard let menu = shown.first("menu item", named: title) else {
      throw DesktopError("no menu \(title)")
    }
    try click(menu)
    let opened = try await waitForTree(
      "the \(title) menu open",
      until: { $0.first("menu item", named: title)?.first("menu") != nil })
    guard let opened else { throw DesktopError("the \(title) menu did not open") }
    let items = (opened.first("menu item", named: title)?.first("menu")?.all ?? [])
      .filter { $0.role == "menu item" }
      .map { MenuItem(label: $0.name, isEnabled: $0.states.contains("sensitive")) }
    try press("Escape")
    let closed = try await waitForTree(
      "the \(title) menu closed",
      until: { $0.first("menu item", named: title)?.first("menu") == nil })
    guard closed != nil else { throw DesktopError("the \(title) menu did not close") }
    return items
  }
}

extension [DesktopSession.MenuItem] {
  /// The first item whose label starts with `label` (a label may carry a reason).
  func item(_ label: String) -> DesktopSession.MenuItem? {
    first { $0.label.hasPrefix(label) }
  }
}

extension DesktopSession {
  /// Clicks the unpinned note titled `title` in the note list, which gives the list the
  /// keyboard, and waits until it is selected.
  ///
  /// - Parameter title: The note's title.
  /// - Throws: `DesktopError` if the list has no such row, or it is not selected.
  func chooseNote(_ title: String) async throws {
    guard
      let row = try tree().first("list", named: "Notes")?.children?.first(where: {
        $0.first("label")?.name.hasPrefix(noteRow(title) + "\n") == true
      })
    else { throw DesktopError("no note \(title) in the list") }
    try click(row)
    let selected = try await waitForTree(
      "\(title) selected",
      until: { $0.first("list", named: "Notes")?.selectedRow == noteRow(title) })
    guard selected != nil else { throw DesktopError("\(title) was not selected") }
  }
}
