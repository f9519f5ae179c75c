// Recycled rows, for real: GTK reuses a handful of row widgets for thousands of notes.
// Each row computes its note's preview off the main actor (slowed down here, so rows are
// recycled while previews are still being computed); after fast scrolling, every visible
// row shows its own note's preview, and the superseded ones were dropped, not shown.

import Airframe
import Foundation
import NotesCore
import NotesHost
import NotesPresentation
import Testing

@Suite(.serialized, .timeLimit(.minutes(3)))
@MainActor
struct RecycledRowTests {
  /// The body of note `number`: `number % 7 + 1` lines and `number % 50 + 1` words.
  static func body(_ number: Int) -> String {
    let words = number % 50 + 1
    let lines = min(number % 7 + 1, words)
    return (0..<words).map { "w\($0)" }.enumerated().map { index, word in
      index == 0 ? word : (index < lines ? "\n" : " ") + word
    }.joined()
  }

  @Test func aRecycledRowShowsOnlyItsOwnNotesPreview() async throws {
    let desktop = try DesktopSession()
    defer { desktop.close() }
    let count = 2_000
    let library = try NotesLibrary.open(path: desktop.database, samples: .never)
    let imported = library.session.notesImported(
      ImportNotes(
        notebooks: [.init(key: 1, title: "Many", created: nil, label: "Many")],
        notes: (0..<count).map { number in
          .init(
            notebook: 1, title: "Note \(number)", body: Self.body(number), created: nil,
            modified: Date(timeIntervalSince1970: Double(1_000_000 + number)), isPinned: false,
            label: "note \(number)")
        }, now: Date()))
    library.close()
    try #require(imported.isCommitted, "\(imported)")

    // Previews take 1,500 ms here, so the scrolling below recycles rows whose previews for
    // their new notes are still being computed.
    try desktop.launch(["NOTES_DESKTOP_PREVIEW_DELAY": "1500"])
    let opened = try #require(
      await desktop.waitForTree("the first rows' previews") { tree in
        let texts = tree.first("list", named: "Notes")?.rowTexts ?? []
        return texts.count > 5 && texts.allSatisfy { $0.contains("\n") }
      })
    let list = try #require(opened.first("list", named: "Notes"))
    let frame = try #require(list.frame)
    // Fast scrolling: GTK rebinds the same few row widgets to other notes again and again.
    try desktop.xdotool(
      [
        "mousemove", "--window", try desktop.windowID(), "\(frame[0] + frame[2] / 2)",
        "\(frame[1] + frame[3] / 2)",
      ]
        + Array(repeating: ["click", "5"], count: 40).flatMap { $0 })
    // At once, while the new previews are computed: a row shows its note's title alone,
    // never the preview of the note it showed before.
    try await expectOwnPreviews(try desktop.tree(), "right after scrolling", previews: false)
    let settled = try #require(
      await desktop.waitForTree("every visible row's preview") { tree in
        let texts = tree.first("list", named: "Notes")?.rowTexts ?? []
        return !texts.isEmpty && texts.allSatisfy { $0.contains("\n") }
      })
    let texts = try #require(settled.first("list", named: "Notes")?.rowTexts)
    // (GTK keeps the selected row's widget, the first note, even when it is scrolled away.)
    #expect(
      texts.contains { $0.hasPrefix(leftToRightMark + "\u{2068}Note 18") },
      "the list did not scroll: \(texts)")
    try await expectOwnPreviews(settled, "once computed", previews: true)
    let report = try await desktop.quit()
    #expect(report.droppedPreviews > 0, "no row was recycled while its preview was computed")
    #expect(report.liveBindings == 0, "bindings outlived the window")
  }

  /// Expects every row of the note list to show its own note's preview, or (unless
  /// `previews`) none yet.
  func expectOwnPreviews(_ tree: AccessibleNode, _ when: String, previews: Bool) async throws {
    let texts = try #require(tree.first("list", named: "Notes")?.rowTexts)
    for text in texts {
      let lines = text.split(separator: "\n", maxSplits: 1).map(String.init)
      // The title and the preview's first line are each isolated from the text around them.
      let title = lines[0].dropFirst((leftToRightMark + "\u{2068}Note ").count).dropLast()
      let number = try #require(Int(title), "row \(text)")
      let expected = await summary(of: Self.body(number))
      if lines.count == 1 {
        #expect(!previews, "\(when): row \(lines[0]) has no preview")
      } else {
        #expect(lines[1] == expected, "\(when): row \(lines[0]) shows \(lines[1])")
      }
    }
  }

  /// The preview the window computes (NoteRowView.summary), written out again.
  func summary(of body: String) async -> String {
    if body.isEmpty { return "Empty" }
    let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
    let words = body.split(whereSeparator: { $0.isWhitespace }).count
    let first = lines.first.map(String.init) ?? ""
    let shown = first.count > 60 ? String(first.prefix(60)) + "…" : first
    return
      "\(leftToRightMark)\(isolated(shown)) · "
      + "\(lines.count) \(lines.count == 1 ? "line" : "lines"), "
      + "\(words) \(words == 1 ? "word" : "words")"
  }
}
