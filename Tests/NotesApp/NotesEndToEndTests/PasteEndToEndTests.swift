// End-to-end tests of pasting into the full-screen app through a real terminal (tmux),
// which brackets a paste once the program turned bracketed paste on: pasted text is text
// in prompts and in the editor, never keys, and a long paste is saved exactly.

import AirframeTesting
import Foundation
import Testing

@Suite(.noLiveBindings, .serialized, .timeLimit(.minutes(10)))
struct PasteEndToEndTests {
  @Test func aPastedNewlineOrEscapeInAPromptIsText() async throws {
    let (notes, _) = try await NotesProgram.onSampleLibrary()
    defer { notes.close() }
    try notes.tmux.type("N")
    try await notes.waitForHint("New notebook title:")
    try notes.tmux.paste("Line1\nLine2")
    try await notes.waitForHint("New notebook title: Line1 Line2")
    try notes.tmux.paste(" Trip\u{1B}[2JNotes")
    try await notes.waitForHint("New notebook title: Line1 Line2 Trip[2JNotes")
    #expect(try notes.library().notebooks.count == 3, "the paste created a notebook")
    try notes.tmux.press("Enter")
    try await notes.observe(after: "creating the pasted notebook") { $0.notebookCount == 4 }
    #expect(try notes.library().notebooks.map(\.title).contains("Line1 Line2 Trip[2JNotes"))
    try await notes.quit()
  }

  @Test func aLongPasteIntoTheEditorIsSavedExactlyAndCtrlQRightAfterItQuits() async throws {
    let (notes, _) = try await NotesProgram.onSampleLibrary()
    defer { notes.close() }
    try notes.tmux.press("Enter")
    try await notes.waitForHint("Type to edit · Esc leaves the editor · Ctrl-Q quits")
    let line = String(repeating: "pasted text ", count: 8) + "\n"
    let text = String(repeating: line, count: 1_000)  // 97,000 characters
    let before = try #require(try notes.library().notes.first { $0.title == "Welcome to Notes" })
    try notes.tmux.paste(text)
    try notes.tmux.press("C-q")
    #expect(try await notes.waitForExit() == 0)
    let after = try #require(try notes.library().notes.first { $0.id == before.id })
    #expect(after.body == before.body + text)
    try notes.expectTerminalRestored()
  }
}
