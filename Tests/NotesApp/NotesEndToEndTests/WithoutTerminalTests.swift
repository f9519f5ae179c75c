// The full-screen app refuses to start when standard input or output is not a terminal.

import AirframeTesting
import Foundation
import NotesTestSupport
import Testing

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
struct WithoutTerminalTests {
  @Test func notesWithInputFromAFileExitsWithAMessage() throws {
    let notes = try #require(Programs.built("notes"), "notes is not built")
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let result = try Programs.run(
      notes, ["--database", folder.file("notes.sqlite")],
      environment: ["HOME=\(folder.path)", "TERM=screen"], folder: folder)
    #expect(result.status == 1)
    #expect(result.errors.contains("terminal"))
    #expect(result.output.isEmpty)
  }
}
