// Long commands say how far they are on standard error when it is a terminal, and nothing
// when it is not, so scripts see what they saw before.

import Foundation
import NotesTestSupport
import Testing

@testable import NotesCommandLine
@testable import NotesFiles

@Suite
@MainActor
struct ProgressLineTests {
  @Test func theLineIsRewrittenInPlaceAndErasedAtTheEnd() {
    let captured = CapturedIO(input: Data(), isTerminal: false, isErrorTerminal: true)
    var line = ProgressLine(io: captured.io)
    line.show("Syncing", done: 0, total: 100_020)
    line.show("Syncing", done: 1, total: 100_020)  // within the interval: not written
    line.show("Syncing", done: 100_020, total: 100_020)  // the end always is
    line.show("Reading files", done: 4_500)  // a new phase always is
    line.finish()
    line.finish()
    #expect(
      captured.result(status: 0).errors
        == "\rSyncing 0% (0 of 100,020)\u{1B}[K" + "\rSyncing 100% (100,020 of 100,020)\u{1B}[K"
        + "\rReading files: 4,500\u{1B}[K" + "\r\u{1B}[K")
  }

  @Test func nothingIsWrittenWhenStandardErrorIsNotATerminal() {
    let captured = CapturedIO(input: Data(), isTerminal: true, isErrorTerminal: false)
    var line = ProgressLine(io: captured.io)
    line.show("Syncing", done: 5, total: 10)
    line.finish()
    #expect(captured.result(status: 0).errors.isEmpty)
  }

  @Test func numbersAreGroupedByThousands() {
    #expect(
      [0, 7, 999, 1_000, 12_345, 100_020, 1_234_567, -4_500].map(Counts.grouped)
        == ["0", "7", "999", "1,000", "12,345", "100,020", "1,234,567", "-4,500"])
  }

  @Test func countedNounsAreGroupedAndAgree() {
    #expect(Counts.phrase(1, "change") == "1 change")
    #expect(Counts.phrase(0, "change") == "0 changes")
    #expect(Counts.phrase(20_001, "change") == "20,001 changes")
    #expect(Counts.phrase(2, "conflict copy") == "2 conflict copies")
    #expect(Counts.phrase(1, "conflict copy") == "1 conflict copy")
  }

  @Test func importShowsItsPhasesOnATerminalOnlyAndPrintsTheSame() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    let root = library.file("Journal")
    try FileManager.default.createDirectory(
      atPath: root + "/Recipes", withIntermediateDirectories: true)
    for (path, text) in ["a.md": "# A\n", "b.md": "# B\n", "Recipes/Soup.md": "Simmer.\n"] {
      try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/" + path))
    }
    let onTerminal = CapturedIO(input: Data(), isTerminal: false, isErrorTerminal: true)
    let shown = library.run(["import", root], captured: onTerminal)
    #expect(shown.status == 0)
    #expect(shown.output.hasPrefix("imported 3 notes"))
    #expect(shown.errors.hasPrefix("\rReading files\u{1B}[K"))
    #expect(shown.errors.contains("\rSaving 3 notes…\u{1B}[K"))
    #expect(shown.errors.hasSuffix("\r\u{1B}[K"))

    let again = try TestLibrary(samples: false)
    defer { again.remove() }
    let piped = again.run(["import", root])
    #expect(piped.errors.isEmpty)
    #expect(piped.output == shown.output)
  }
}
