// End-to-end tests of Unicode on a real terminal (tmux): titles with joined emoji, flags,
// combining marks and invisible characters never shift a row or leave stray cells behind,
// and Ctrl-L repaints a screen that something else wrote over.

import AirframeTesting
import Foundation
import NotesTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite(.noLiveBindings, .serialized, .timeLimit(.minutes(10)))
struct UnicodeEndToEndTests {
  /// Titles that terminals draw at different widths unless the app sends them safely.
  static let titles = [
    "👩‍👩‍👧 family", "🇺🇸 usa", "e\u{301} ❤️ 👍🏽 mixed", "plain", "🇯🇵🇫🇷 pair",
  ]

  /// A library of one notebook whose notes have `titles`, made with the command line.
  func makeLibrary(in folder: TemporaryFolder) throws -> String {
    let database = folder.file("unicode.sqlite")
    let notes = try #require(Programs.built("notes"))
    for (index, title) in Self.titles.enumerated() {
      let create = index == 0 ? ["--create-notebook"] : []
      let result = try Programs.run(
        notes,
        ["add", "--database", database, "--notebook", "Fam 👩‍👩‍👧", "--title", title, "--body", "b"]
          + create, environment: ["HOME=\(folder.path)", "LANG=C.UTF-8"], folder: folder)
      #expect(result.status == 0, "notes add failed: \(result.errors)")
    }
    return database
  }

  /// The columns of each "│" in a captured row, counted as the app counts them.
  static func ruleColumns(_ row: String) -> [Int] {
    var columns: [Int] = []
    var column = 0
    for character in row {
      if character == "│" { columns.append(column) }
      column += Columns.of(character)
    }
    return columns
  }

  @Test func rowsNeverShiftAndMovingAwayLeavesNoStrayCells() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let notes = try NotesProgram(database: try makeLibrary(in: folder))
    defer { notes.close() }
    try #require(await notes.waitUntilFullScreen())
    for step in 0..<Self.titles.count {
      let rows = try #require(
        await notes.tmux.waitForScreen("step \(step) shows the list") { rows in
          // Newest first: the last title added is at the top.
          let word = Self.titles.reversed()[step].split(separator: " ").last!
          return rows.count == 30 && rows[1].contains("NOTES 5") && rows[0].contains(word)
        })
      let paneRows = rows[2..<27]
      #expect(Set(paneRows.map(Self.ruleColumns)).count == 1, "step \(step): \(rows)")
      for row in rows {
        let scalars = row.unicodeScalars.map(\.value)
        #expect(
          !scalars.contains { [0x200D, 0xFE0F].contains($0) || (0x1F3FB...0x1F3FF).contains($0) },
          "a stray cell at step \(step): \(row)")
      }
      try notes.tmux.press("j")
    }
    try await notes.quit()
  }

  @Test func ctrlLRepaintsWhatSomethingElseWroteOverTheScreen() async throws {
    let notes = try NotesProgram()
    defer { notes.close() }
    try #require(await notes.waitUntilFullScreen())
    try await notes.tmux.waitForScreen("the library shows") { $0.first?.contains("Notes") == true }
    let tty = try notes.tmux.value("#{pane_tty}")
    let handle = try #require(FileHandle(forWritingAtPath: tty))
    handle.write(Data("\u{1B}[5;30HSTRAY TEXT FROM ANOTHER PROGRAM".utf8))
    try handle.close()
    try await notes.tmux.waitForScreen("the stray text shows") {
      $0.contains { $0.contains("STRAY TEXT") }
    }
    try notes.tmux.press("C-l")
    try await notes.tmux.waitForScreen("Ctrl-L repaints") {
      !$0.contains { $0.contains("STRAY TEXT") } && $0.first?.contains("Notes") == true
    }
    try await notes.quit()
  }
}
