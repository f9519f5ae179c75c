// Observing a Notes session: its screen read back as a `NotesScreen`, and its database
// read through the command line while that screen shows, so the two can be compared.

import Testing

/// A screen and the database as it was while the screen showed.
struct Observation {
  /// The screen.
  var screen: NotesScreen
  /// The database.
  var library: Library
}

extension NotesProgram {
  /// The database, read with `notes export`.
  ///
  /// - Returns: Its notebooks and notes.
  /// - Throws: `Library.Unreadable` when it cannot be read.
  func library() throws -> Library { try Library.read(database: databasePath) }

  /// Starts `notes` on a new database and waits until it shows the sample library.
  ///
  /// - Parameter sourceLocation: Where issues are recorded.
  /// - Returns: The session (close it) and its first observation.
  /// - Throws: When the session cannot start or does not show the samples; the session is
  ///   closed then.
  static func onSampleLibrary(
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> (NotesProgram, Observation) {
    let notes = try NotesProgram()
    do {
      try #require(await notes.waitUntilFullScreen(), sourceLocation: sourceLocation)
      let start = try #require(
        await notes.observe(after: "starting", sourceLocation: sourceLocation) {
          $0.listCount == 6
        }, sourceLocation: sourceLocation)
      return (notes, start)
    } catch {
      notes.close()
      throw error
    }
  }

  /// Quits with `key`, expecting status 0, the terminal restored and, if given, the
  /// database as `library` says.
  ///
  /// - Parameters:
  ///   - key: The key that quits, by its tmux name.
  ///   - library: What the database must hold afterwards, if anything.
  ///   - context: What the test did, for issues.
  ///   - sourceLocation: Where issues are recorded.
  /// - Throws: `TmuxError` when tmux fails, `Library.Unreadable` when the database cannot
  ///   be read, or `CancellationError`.
  func quit(
    with key: String = "q", expecting library: Library? = nil, _ context: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    try tmux.press(key)
    #expect(
      try await waitForExit(sourceLocation: sourceLocation) == 0,
      "\(context) \(key) did not quit cleanly", sourceLocation: sourceLocation)
    try expectTerminalRestored(sourceLocation: sourceLocation)
    if let library {
      #expect(
        try self.library() == library, "\(context) the database is not as expected",
        sourceLocation: sourceLocation)
    }
  }

  /// Waits until the hint line shows exactly `hint` (such as a prompt and its text) and
  /// the rows satisfy `condition`.
  ///
  /// - Parameters:
  ///   - hint: The hint line's text, without the leading space.
  ///   - context: What the test did, for the issue recorded on a timeout.
  ///   - sourceLocation: Where the issue is recorded.
  ///   - condition: A further condition on the rows.
  /// - Throws: `TmuxError` when tmux fails, or `CancellationError`.
  func waitForHint(
    _ hint: String, _ context: String = "", sourceLocation: SourceLocation = #_sourceLocation,
    where condition: ([String]) -> Bool = { _ in true }
  ) async throws {
    try await tmux.waitForScreen(
      "\(context) the hint line shows \(String(reflecting: hint))", sourceLocation: sourceLocation
    ) { rows in rows.count > 2 && rows[rows.count - 2] == " " + hint && condition(rows) }
  }

  /// Waits until a row shows `text`, such as an overlay box's title or question.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - context: What the test did, for the issue recorded on a timeout.
  ///   - sourceLocation: Where the issue is recorded.
  /// - Returns: The rows, or `nil` on a timeout.
  /// - Throws: `TmuxError` when tmux fails, or `CancellationError`.
  @discardableResult
  func waitForText(
    _ text: String, _ context: String = "", sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> [String]? {
    try await tmux.waitForScreen(
      "\(context) the screen shows \(String(reflecting: text))", sourceLocation: sourceLocation
    ) { rows in rows.contains { $0.contains(text) } }
  }

  /// Waits for a settled browsing screen that satisfies `condition`.
  ///
  /// - Parameters:
  ///   - description: What is awaited, for the issue recorded on a timeout.
  ///   - sourceLocation: Where the issue is recorded.
  ///   - condition: The condition.
  /// - Returns: The screen, or `nil` on a timeout.
  /// - Throws: `TmuxError` when tmux fails, or `CancellationError`.
  @discardableResult
  func waitForNotesScreen(
    _ description: String, sourceLocation: SourceLocation = #_sourceLocation,
    where condition: (NotesScreen) -> Bool = { _ in true }
  ) async throws -> NotesScreen? {
    try await settledScreen(description, sourceLocation: sourceLocation) { screen, _ in
      condition(screen) ? screen : nil
    }
  }

  /// Waits for a settled browsing screen that satisfies `condition`, reads the database
  /// while it shows, and records every disagreement between the panes and with the
  /// database.
  ///
  /// ## Guarantees
  ///
  /// - A screen is taken only once it has settled (two captures in a row are the same,
  ///   attributes included), `notes` is idle (it has read every byte sent to it and used no
  ///   processor time between the two captures, see `activity()`), and it parses as the
  ///   browsing screen.
  /// - An observation is consistent: the database is read between two identical captures,
  ///   and the app writes a change to the database before it draws it, so the database read
  ///   is the one the screen shows.
  /// - Waiting has a generous timeout as a safety net; hitting it records an issue with the
  ///   screen at that moment.
  ///
  /// - Parameters:
  ///   - step: What the test just did, for the issues recorded.
  ///   - sourceLocation: Where issues are recorded.
  ///   - condition: What the screen must show once the step is done.
  /// - Returns: The screen and the database, or `nil` on a timeout.
  /// - Throws: `TmuxError` when tmux fails, `Library.Unreadable` when the database cannot
  ///   be read, or `CancellationError`.
  @discardableResult
  func observe(
    after step: String, sourceLocation: SourceLocation = #_sourceLocation,
    until condition: (NotesScreen) -> Bool = { _ in true }
  ) async throws -> Observation? {
    let observation = try await settledScreen(step, sourceLocation: sourceLocation) {
      screen, styled -> Observation? in
      guard condition(screen) else { return nil }
      let library = try library()
      // The same screen after the read: the database read is the one it shows.
      guard try tmux.styledScreen() == styled else { return nil }
      return Observation(screen: screen, library: library)
    }
    guard let observation else { return nil }
    Agreement.expect(
      observation.screen, observation.library, step, sourceLocation: sourceLocation)
    return observation
  }

  /// Polls until two captures in a row are the same while `notes` stays idle, parse as the
  /// browsing screen and `accept` makes something of them.
  ///
  /// - Parameters:
  ///   - description: What is awaited, for the issue recorded on a timeout.
  ///   - sourceLocation: Where the issue is recorded.
  ///   - accept: Given the screen and its capture, the result, or `nil` to keep waiting.
  /// - Returns: The result, or `nil` on a timeout.
  /// - Throws: An error `accept` or tmux throws, or `CancellationError`.
  private func settledScreen<Result>(
    _ description: String, sourceLocation: SourceLocation,
    _ accept: (NotesScreen, [StyledText]) throws -> Result?
  ) async throws -> Result? {
    var previous: [StyledText]?
    var previousActivity: Activity?
    var result: Result?
    try await tmux.waitUntil(description, sourceLocation: sourceLocation) {
      let activity = try activity()
      let styled = try tmux.styledScreen()
      defer { (previous, previousActivity) = (styled, activity) }
      guard styled == previous, activity == previousActivity, activity?.hasPendingInput != true,
        let screen = try? NotesScreen(styled)
      else { return false }
      result = try accept(screen, styled)
      return result != nil
    }
    return result
  }
}
