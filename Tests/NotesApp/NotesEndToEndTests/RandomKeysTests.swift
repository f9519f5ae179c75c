// Bad input through a real terminal: seeded bursts of random key bytes sent to the built
// `notes` program in tmux.
//
// - Anywhere in the app, random keys may do whatever their keys mean (create, rename,
//   delete…), so there the test asks only that the program survives them: it keeps
//   running (or quits cleanly, with status 0 and the terminal restored, if the keys
//   chose Quit in the command palette), comes back to browsing on Escape, and then its
//   panes still agree with each other and with the database.
// - Where keys cannot change the database — typed into a prompt then cancelled with
//   Escape, or pressed while a confirmation, the move picker or the command palette is
//   open, other than the keys that answer or close them — the database must be exactly
//   as before, and the field must hold exactly the text the keys typed.
// Every failure names the seed and the bytes; NOTES_RANDOM_KEYS_SEED adds a seed.

import AirframeTesting
import Foundation
import NotesTestSupport
import Testing

@Suite(.noLiveBindings, .serialized, .timeLimit(.minutes(10)))
struct RandomKeysTests {
  /// The bytes that quit from browsing: q and Ctrl-Q.
  ///
  /// Random keys leave them out, or most bursts would end the program after a few keys.
  static let quitBytes: Set<UInt8> = [0x71, 0x11]

  @Test(arguments: RandomKeys.seeds)
  func randomBurstsNeverCrashTheAppOrBreakTheScreen(seed: UInt64) async throws {
    var random = SeededGenerator(seed: seed)
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = folder.file("notes.sqlite")
    var notes = try NotesProgram(database: database)
    defer { notes.close() }
    try #require(await notes.waitUntilFullScreen())
    var last = try #require(await notes.observe(after: "starting, seed \(seed)"))

    for burst in 1...10 {
      let bytes = RandomKeys.anyKeys(&random, keys: 40, excluding: Self.quitBytes)
      let context = "seed \(seed), burst \(burst): \(RandomKeys.hex(bytes))"
      try notes.tmux.send(bytes: bytes)
      switch try await Self.backToBrowsing(notes, context) {
      case .browsing(let observation):
        last = observation
      case .ended(let status):
        // Only a clean quit (the palette's Quit) is allowed; anything else is a crash.
        try #require(status == 0, "\(context): notes ended with status \(status)")
        try notes.expectTerminalRestored()
        notes.close()
        notes = try NotesProgram(database: database)
        try #require(await notes.waitUntilFullScreen())
        last = try #require(await notes.observe(after: "\(context), then starting again"))
      case nil:
        return
      }
    }

    try await notes.quit(with: "C-q", expecting: last.library, "seed \(seed):")
  }

  @Test(arguments: RandomKeys.seeds)
  func randomTextInAPromptIsCancelledByEscape(seed: UInt64) async throws {
    var random = SeededGenerator(seed: seed)
    let (notes, start) = try await NotesProgram.onSampleLibrary()
    defer { notes.close() }
    let tmux = notes.tmux

    // Each prompt: the keys that open it, its label and the text it starts with. The
    // notebook rename comes last: it moves the focus to the sidebar.
    let prompts: [(keys: [String], label: String, text: String)] = [
      (["n"], "New note title", ""),
      (["N"], "New notebook title", ""),
      (["r"], "Rename note", "Welcome to Notes"),
      (["/"], "Search", ""),
      (["BTab", "Down", "r"], "Rename notebook", "Home"),
    ]
    for prompt in prompts {
      for key in prompt.keys { try tmux.press(key) }
      let opened = prompt.text.isEmpty ? "\(prompt.label):" : "\(prompt.label): \(prompt.text)"
      try await notes.waitForHint(opened)
      let bytes = RandomKeys.textKeys(&random, keys: 30)
      let context = "seed \(seed), \(prompt.label): \(RandomKeys.hex(bytes))"
      try tmux.send(bytes: bytes)
      let text = RandomKeys.promptText(after: bytes, startingWith: prompt.text)
      let hint = Columns.fitted("\(prompt.label): \(text)", 98)
      try await notes.waitForHint(hint, context)
      #expect(try notes.library() == start.library, "\(context): typing changed the database")
      if !prompt.label.hasPrefix("Rename") {
        // (A rename's field replaces its row, so the panes are compared after Escape.)
        let typed = try #require(await notes.observe(after: context) { $0.hint == hint })
        if prompt.label == "Search" {
          let shown = typed.screen.listSearch ?? ""
          #expect(text.hasPrefix(shown), "\(context): the list's header shows \(shown)")
        }
      }

      try tmux.press("Escape")
      let cancelled = try #require(
        await notes.observe(after: "\(context), then Escape") { $0.isBrowsing })
      #expect(cancelled.library == start.library, "\(context): Escape left a change")
      #expect(cancelled.screen.listSearch == nil, "\(context): Escape left the search")
    }

    try await notes.quit(expecting: start.library, "seed \(seed):")
  }

  @Test(arguments: RandomKeys.seeds)
  func randomKeysInTheBoxesAreIgnored(seed: UInt64) async throws {
    var random = SeededGenerator(seed: seed)
    let (notes, start) = try await NotesProgram.onSampleLibrary()
    defer { notes.close() }
    let tmux = notes.tmux

    // Each box: the keys that open it, text it shows, the bytes that answer or close it
    // (never sent at random), and the key that closes it without a change.
    let boxes: [(open: String, shows: String, closers: Set<UInt8>, close: String)] = [
      (":", "Commands (Enter runs, Esc closes)", [0x3A, 0x10], "Escape"),
      ("m", "Move to (Enter moves, Esc cancels)", [], "Escape"),
      ("d", "Delete \"Home\" and its 2 notes?", [0x79, 0x59, 0x6E, 0x4E], "n"),
    ]
    var before = start
    for box in boxes {
      if box.open == "d" {
        // Deleting a notebook: select Home in the sidebar first.
        try tmux.press("BTab")
        try tmux.press("Down")
        before = try #require(
          await notes.observe(after: "selecting Home") {
            $0.selectedSidebarEntry?.title == "Home" && $0.focusedPane == .sidebar
          })
      }
      try tmux.type(box.open)
      try await notes.waitForText(box.shows)
      let bytes = RandomKeys.textKeys(&random, keys: 30, excluding: box.closers)
      let context = "seed \(seed), box \(box.shows): \(RandomKeys.hex(bytes))"
      try tmux.send(bytes: bytes)
      try await notes.waitForText(box.shows, context)
      try tmux.press(box.close)
      let closed = try #require(
        await notes.observe(after: "\(context), then \(box.close)") { $0.isBrowsing })
      #expect(closed.library == start.library, "\(context): the database changed")
      #expect(
        closed.screen.rows == before.screen.rows,
        "\(context): the screen changed:\n\(closed.screen)\nbefore:\n\(before.screen)")
    }
    try await notes.quit(expecting: start.library, "seed \(seed):")
  }

  @Test func bytesThatAreNotUTF8AreIgnored() async throws {
    let (notes, start) = try await NotesProgram.onSampleLibrary()
    defer { notes.close() }
    let tmux = notes.tmux
    try tmux.type("n")
    try await notes.waitForHint("New note title:")

    // Every byte from 0x80 to 0xFF, each between two letters: none may reach the field
    // (as a character or a replacement character), end the program or close the prompt.
    for byte in UInt8(0x80)...UInt8(0xFF) {
      try tmux.send(bytes: [0x61, byte, 0x62])
    }
    // 256 letters: the prompt shows the end of the text, after "…".
    let screen = try #require(
      await notes.waitForNotesScreen("the prompt is still open") {
        $0.hint.hasPrefix("New note title: …ab") && $0.hint.hasSuffix("ab")
      })
    let text = screen.hint.dropFirst("New note title: …".count)
    #expect(text.allSatisfy { $0 == "a" || $0 == "b" }, "the field holds \(text)")

    // A key typed on its own afterwards arrives. (Bytes that arrive together with one that
    // is not UTF-8 may be lost, see the next test; so clear and type until it shows.)
    var typed = false
    for _ in 0..<5 where !typed {
      try tmux.press("C-u")
      try tmux.type("Z")
      typed = try await Self.poll(for: .seconds(2)) {
        try tmux.screen().dropLast().last == " New note title: Z"
      }
    }
    #expect(typed, "Ctrl-U and Z do not reach the field")
    try tmux.press("Escape")
    let cancelled = try #require(
      await notes.observe(after: "cancelling the prompt") { $0.isBrowsing })
    #expect(cancelled.library == start.library)
    let pid = try #require(notes.pid)
    #expect(NotesProgram.isRunning(pid))
  }

  @Test func keysThatArriveWithAByteThatIsNotUTF8AreNotLost() async throws {
    let (notes, start) = try await NotesProgram.onSampleLibrary()
    defer { notes.close() }
    let tmux = notes.tmux
    try tmux.type("n")
    try await notes.waitForHint("New note title:")

    // a, a byte that is not UTF-8, b — in one write, as a paste would send them; then c.
    try tmux.send(bytes: [0x61, 0xFF, 0x62])
    try await notes.waitForNotesScreen("a shows") { $0.hint.hasPrefix("New note title: a") }
    try tmux.type("c")
    let screen = try #require(
      await notes.waitForNotesScreen("c shows") { $0.hint.hasSuffix("c") })
    // Regression: ncurses' wget_wch drops every byte after an invalid one in the same read,
    // so the terminal decodes bytes itself and drops only the invalid byte.
    #expect(screen.hint == "New note title: abc", "the field shows \(screen.hint)")
    try tmux.press("Escape")
    let cancelled = try #require(
      await notes.observe(after: "cancelling the prompt") { $0.isBrowsing })
    #expect(cancelled.library == start.library)
  }

  @Test func aTitleWithAnInvisibleControlCharacterIsRefusedWithAMessage() async throws {
    let (notes, start) = try await NotesProgram.onSampleLibrary()
    defer { notes.close() }
    let tmux = notes.tmux
    try tmux.type("n")
    try await notes.waitForHint("New note title:")
    // "Bad", NEXT LINE (U+0085, a C1 control character, as UTF-8), "title".
    try tmux.send(bytes: Array("Bad\u{85}title".utf8))
    try await notes.waitForHint("New note title: Bad\u{FFFD}title")
    try tmux.press("Enter")
    let refused = try #require(
      await notes.observe(after: "submitting the title") { $0.message != nil })
    #expect(refused.screen.message?.contains("control characters") == true)
    #expect(refused.screen.hint == "New note title: Bad\u{FFFD}title")
    #expect(refused.library == start.library)
    try tmux.press("Escape")
    let cancelled = try #require(
      await notes.observe(after: "cancelling the prompt") { $0.isBrowsing })
    #expect(cancelled.library == start.library)
  }

  // MARK: - Helpers

  /// Where the program is after a burst.
  enum Settled {
    /// Browsing again, with its screen and database.
    case browsing(Observation)
    /// Ended, with the status the shell reported.
    case ended(Int32)
  }

  /// Brings the program back to browsing after a burst: presses Escape until no prompt or
  /// box is open, then proves every key of the burst was handled (F1 opens help, and
  /// only once the keys before it are handled), closes help and observes the screen and
  /// the database.
  ///
  /// - Parameters:
  ///   - notes: The session.
  ///   - context: The seed and burst, for issues.
  /// - Returns: Where the program is, or `nil` after recording why it did not get there.
  /// - Throws: `TmuxError` when tmux fails, `Library.Unreadable` when the database cannot
  ///   be read, or `CancellationError`.
  static func backToBrowsing(_ notes: NotesProgram, _ context: String) async throws -> Settled? {
    let pid = try #require(notes.pid)
    let help = "Keys ("  // "(any key closes)", or "(↑↓ scroll, Esc closes)" in a small window
    for _ in 0..<20 {
      guard NotesProgram.isRunning(pid) else {
        return .ended(try await notes.waitForExit() ?? -1)
      }
      let styled = try await settledCapture(notes)
      guard let screen = try? NotesScreen(styled), screen.isBrowsing else {
        try notes.tmux.press("Escape")
        // The program holds a lone Escape for its escape delay (25 ms), waiting for the
        // rest of a key sequence: it is idle then with no input pending, so a capture in
        // that time is not its answer. Escapes sent closer together than the delay were
        // read as one sequence, and twenty of them closed nothing.
        try await Task.sleep(for: Self.escapeDelay * 4)
        continue
      }
      // F1 opens help from browsing, in any pane. Until it shows, the keys before it may
      // still be arriving; if they open a prompt or a box (where F1 does nothing), start
      // over and close it. ncurses drops the bytes that arrive with one that is not UTF-8,
      // F1's included: with neither help nor a change for a while, start over too.
      try notes.tmux.press("F1")
      var helpShows = false
      _ = try await poll(for: .seconds(2)) {
        guard NotesProgram.isRunning(pid) else { return true }
        let styled = try notes.tmux.styledScreen()
        helpShows = styled.contains { $0.text.contains(help) }
        return helpShows || (try? NotesScreen(styled))?.isBrowsing != true
      }
      guard helpShows else { continue }
      try notes.tmux.press("Escape")
      let observation = try await notes.observe(after: context) {
        $0.isBrowsing && !$0.sync.hasPrefix("Syncing")
      }
      return observation.map { .browsing($0) }
    }
    let screen = (try? notes.tmux.screen().joined(separator: "\n")) ?? ""
    Issue.record("\(context): Escape does not bring the program back to browsing:\n\(screen)")
    return nil
  }

  /// A capture taken once two in a row are the same while `notes` is idle (it has read
  /// every key sent and used no processor time in between), or after a few seconds the
  /// last.
  ///
  /// Idle matters: only then is a key pressed next the only key in flight, so what the
  /// screen shows afterwards is that key's doing. (A screen that merely stays the same is
  /// no proof: under ThreadSanitizer a burst's keys cost tens of milliseconds each, and
  /// a run of keys that change nothing outlasts two captures; if the burst's own F1 or
  /// `?` then opens help, the database is compared with a screen half-way through the
  /// burst: no key is late, the observation is early.)
  static func settledCapture(_ notes: NotesProgram) async throws -> [StyledText] {
    var current = (try notes.tmux.styledScreen(), try notes.activity())
    let deadline = ContinuousClock.now + .seconds(5)
    while ContinuousClock.now < deadline {
      // Two captures an interval apart, never back to back: two taken in the same
      // millisecond agree whatever the program is doing.
      try await Task.sleep(for: .milliseconds(20))
      let previous = current
      current = (try notes.tmux.styledScreen(), try notes.activity())
      if current.0 == previous.0, current.1 == previous.1, current.1?.hasPendingInput != true {
        break
      }
    }
    return current.0
  }

  /// How long the program waits after an Escape for the rest of a key sequence
  /// (`set_escdelay` in its terminal layer).
  static let escapeDelay = Duration.milliseconds(25)

  /// Polls a condition every 20 ms, recording nothing if it does not come true.
  ///
  /// - Parameters:
  ///   - timeout: How long to try.
  ///   - condition: The condition.
  /// - Returns: Whether it came true.
  /// - Throws: An error `condition` throws, or `CancellationError`.
  static func poll(
    for timeout: Duration = .seconds(5), _ condition: () throws -> Bool
  ) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if try condition() { return true }
      try await Task.sleep(for: .milliseconds(20))
    }
    return try condition()
  }
}
