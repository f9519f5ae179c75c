import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTerminalUI
import Testing

@testable import NotesPresentation

/// Pasted text is text in every prompt and in the editor, and a batch of keys read at once
/// is one edit and one save.
@Suite(.noLiveBindings)
@MainActor
struct PasteTests {
  /// Feeds the bytes of one terminal read through the decoder to the app, as `notes` does.
  func read(_ bytes: String, into app: TerminalApplication, decoder: inout InputDecoder) {
    decoder.feed(bytes: Array(bytes.utf8))
    app.handle(decoder.finishRead())
  }

  func pasted(_ text: String) -> String { "\u{1B}[200~" + text + "\u{1B}[201~" }

  @Test func aNewlineInAPastedPromptIsNotEnter() {
    let app = makeApp()
    var decoder = InputDecoder()
    let revision = app.session.model.revision
    read("N" + pasted("Line1\rLine2"), into: app, decoder: &decoder)
    #expect(app.prompt?.purpose == .newNotebook)
    #expect(app.prompt?.text == "Line1 Line2")
    #expect(app.session.model.revision == revision)
    read("\r", into: app, decoder: &decoder)
    #expect(app.session.model.state.notebooks.elements.map(\.title).contains("Line1 Line2"))
    app.expectPanesAgree()
    app.shutdown()
  }

  @Test func anEscapeInsidePastedTextDoesNotCloseThePrompt() {
    let app = makeApp()
    var decoder = InputDecoder()
    read("N" + pasted("Trip\u{1B}[2JNotes"), into: app, decoder: &decoder)
    #expect(app.prompt?.purpose == .newNotebook)
    #expect(app.prompt?.text == "Trip[2JNotes")
    read("\r", into: app, decoder: &decoder)
    #expect(app.session.model.state.notebooks.elements.map(\.title).contains("Trip[2JNotes"))
    app.shutdown()
  }

  @Test func pastedTextInTheSearchAndRenamePromptsIsText() {
    let app = makeApp()
    var decoder = InputDecoder()
    read("/" + pasted("gro\r"), into: app, decoder: &decoder)
    #expect(app.session.noteList.search == "gro ")
    #expect(app.prompt?.purpose == .search)
    #expect(app.prompt?.text == "gro ")
    read("\u{1B}", into: app, decoder: &decoder)
    read("r\u{15}" + pasted("q\rd"), into: app, decoder: &decoder)
    #expect(app.prompt?.purpose == app.selectedNoteRename)
    #expect(app.prompt?.text == "q d")
    #expect(!app.isFinished)
    app.shutdown()
  }

  @Test func aPasteWhileBrowsingRunsNoCommand() {
    let app = makeApp()
    var decoder = InputDecoder()
    let revision = app.session.model.revision
    read(pasted("dq"), into: app, decoder: &decoder)
    #expect(app.session.model.revision == revision)
    #expect(!app.isFinished)
    #expect(app.interaction == .browsing)
    #expect(app.screen()[23].contains("Pasted text goes into the editor or a prompt"))
    app.shutdown()
  }

  @Test func aPasteIntoTheEditorIsOneEditAndOneSave() {
    let app = makeApp()
    var decoder = InputDecoder()
    app.press(.enter, .control("u"))  // the editor, on "Welcome to Notes"
    let id = NoteID(rawValue: 4)
    let before = app.session.model.state.notes[id]!.body
    var commits = 0
    let lifetime = app.session.model.observeCommits { _ in commits += 1 }
    let text = String(repeating: "0123456789\r", count: 500)  // 5,500 characters
    read(pasted(text) + "!", into: app, decoder: &decoder)
    #expect(commits == 1)
    let expected = before + String(repeating: "0123456789\n", count: 500) + "!"
    #expect(app.session.model.state.notes[id]!.body == expected)
    // The Ctrl-Q after a paste is a key again.
    read("\u{11}", into: app, decoder: &decoder)
    #expect(app.isFinished)
    lifetime.cancel()
    app.shutdown()
  }

  @Test func aTypedControlCharacterNeverEntersTheNoteAndQuittingLeavesNoDraft() {
    // Found by the keys fuzz target: Enter, then "+nG", U+0094 and "cc" left a draft that
    // could not be saved (a body with a control character is refused) when the app quit.
    let app = makeApp()
    app.press(.enter)
    let id = NoteID(rawValue: 4)
    let before = app.session.model.state.notes[id]!.body
    app.handle([.character("+"), .character("n"), .character("\u{94}"), .character("c")])
    #expect(app.session.model.state.notes[id]!.body == before + "+nc")
    #expect(!app.session.editorState.value.isDirty)
    app.shutdown()
    #expect(!app.session.editorState.value.isDirty)
  }

  @Test func typedKeysReadTogetherAreOneSave() {
    let app = makeApp()
    app.press(.enter)
    var commits = 0
    let lifetime = app.session.model.observeCommits { _ in commits += 1 }
    app.handle([.character("a"), .enter, .character("b"), .left, .character("c")])
    // "a\nb" is one run, the arrow ends it, "c" is a second run.
    #expect(commits == 2)
    #expect(app.session.model.state.notes[NoteID(rawValue: 4)]!.body.hasSuffix("a\ncb"))
    lifetime.cancel()
    app.shutdown()
  }

  @Test func aPastedTitleWithABidiOverrideIsRefusedWithItsReason() {
    let app = makeApp()
    var decoder = InputDecoder()
    let revision = app.session.model.revision
    read("N" + pasted("\u{202E}txt.exe") + "\r", into: app, decoder: &decoder)
    #expect(app.session.model.revision == revision)
    #expect(app.prompt?.text == "\u{202E}txt.exe")
    #expect(app.screen()[23].contains("must not contain bidirectional controls (U+202E)."))
    // The prompt draws the override as a visible U+FFFD, so it cannot reorder the line.
    #expect(app.screen()[22].hasPrefix(" New notebook title: \u{FFFD}txt.exe"))
    app.shutdown()
  }

  @Test func aLongPasteIntoATitlePromptSaysAtOnceThatItIsTooLong() {
    let app = makeApp()
    var decoder = InputDecoder()
    read("n" + pasted(String(repeating: "x", count: 10_000)), into: app, decoder: &decoder)
    #expect(app.screen()[23].contains("The note title must be at most 200 characters."))
    // The prompt shows the end of the text, where the cursor is, right after it.
    let screen = app.render(width: 100, height: 24)
    let prompt = screen.line(22)
    #expect(prompt.hasPrefix(" New note title: …xxxx"))
    #expect(screen.cursor?.row == 22)
    #expect(screen.cursor?.column == prompt.trimmingCharacters(in: .whitespaces).count + 1)
    app.shutdown()
  }
}

extension TerminalApplication {
  /// The purpose of renaming the selected note.
  var selectedNoteRename: Prompt.Purpose? {
    session.noteList.lens.selection.value.map { .renameNote($0) }
  }

  /// The open prompt, if any.
  var prompt: Prompt? {
    if case .prompt(let prompt) = interaction { prompt } else { nil }
  }
}
