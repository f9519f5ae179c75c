// Bad input for every NotesCore validator and action: 1 MiB strings, invalid UTF-8
// decoded lossily, control and escape characters, unknown ids, and SQL-special text.
//
// Every time the result is one of two things, never a crash:
// - rejected with a reason: a ValidationIssue naming the field, with a short message that
//   contains no control character (so it can go to a status bar as it is), and the model
//   exactly as before (state, revision, undo history);
// - accepted as plain text: stored verbatim (titles trimmed of surrounding white space),
//   with quotes, semicolons and `%` meaning nothing special.
//
// Decisions this file records:
// - Invalid UTF-8 never reaches NotesCore as bytes: a `String` decoded lossily holds
//   U+FFFD REPLACEMENT CHARACTER where the bad bytes were. U+FFFD is a visible symbol, not
//   a control character, so such text is accepted and stored with the U+FFFD in place.
// - Limits count characters as a person does (grapheme clusters), not bytes: 1 MiB of
//   two-byte or four-byte characters is a valid body, 1 MiB of ASCII is not.
// - Titles are checked before trimming: a title with a trailing newline is refused (a
//   control character), not silently trimmed.
// - In titles, control characters (Cc), bidirectional controls (U+202E RIGHT-TO-LEFT
//   OVERRIDE), invisible characters (U+200B ZERO WIDTH SPACE, U+FEFF) and noncharacters
//   (U+FFFF) are refused, each class with its own reason. Bodies accept all but the
//   control characters; the terminal app draws the others as a visible U+FFFD.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import Testing

/// What NotesCore does with one input in one kind of field.
enum Verdict: Sendable {
  /// Accepted and stored as this text.
  case accepted(String)
  /// Refused; an issue names the field and its message contains this fragment.
  case rejected(String)
}

/// One bad input and what it must do as a title and as a note body.
struct BadInput: Sendable, CustomTestStringConvertible {
  let name: String
  let text: String
  let asTitle: Verdict
  let asBody: Verdict

  var testDescription: String { name }

  /// Accepted verbatim as a body; as a title, `title`.
  static func plain(_ name: String, _ text: String, title: Verdict? = nil) -> Self {
    BadInput(
      name: name, text: text, asTitle: title ?? .accepted(text), asBody: .accepted(text))
  }
}

let mebibyte = 1 << 20

let badInputs: [BadInput] = [
  BadInput(
    name: "1 MiB of ASCII", text: String(repeating: "a", count: mebibyte),
    asTitle: .rejected("at most"), asBody: .rejected("at most")),
  .plain(
    "1 MiB of two-byte characters (524,288 characters)",
    String(repeating: "é", count: mebibyte / 2), title: .rejected("at most")),
  .plain(
    "1 MiB of emoji (262,144 characters)", String(repeating: "🎉", count: mebibyte / 4),
    title: .rejected("at most")),
  .plain(
    "a body of exactly the limit", String(repeating: "b", count: NotesRules.bodyLimit),
    title: .rejected("at most")),
  BadInput(
    name: "one character over the body limit",
    text: String(repeating: "b", count: NotesRules.bodyLimit + 1), asTitle: .rejected("at most"),
    asBody: .rejected("at most")),
  BadInput(
    name: "1 MiB of white space", text: String(repeating: " ", count: mebibyte),
    asTitle: .rejected("empty"), asBody: .rejected("at most")),
  BadInput(
    name: "1 MiB of escape sequences", text: String(repeating: "\u{1B}[2J", count: mebibyte / 4),
    asTitle: .rejected("control"), asBody: .rejected("control")),
  .plain(
    "invalid UTF-8 decoded lossily",
    String(decoding: [0x48, 0x69, 0xFF, 0xFE, 0x20, 0xC3, 0x28, 0xED, 0xA0, 0x80], as: UTF8.self)),
  .plain("only invalid UTF-8", String(decoding: [0xFF, 0xC0, 0x80], as: UTF8.self)),
  BadInput(
    name: "ESC [2J (clear screen)", text: "\u{1B}[2J", asTitle: .rejected("control"),
    asBody: .rejected("control")),
  BadInput(
    name: "NUL inside", text: "a\u{0}b", asTitle: .rejected("control"),
    asBody: .rejected("control")),
  BadInput(
    name: "DEL", text: "\u{7F}", asTitle: .rejected("control"), asBody: .rejected("control")),
  BadInput(
    name: "C1 control NEL", text: "x\u{85}y", asTitle: .rejected("control"),
    asBody: .rejected("control")),
  .plain("newline in a title", "Line\nbreak", title: .rejected("control")),
  .plain("tab and CR LF", "a\tb\r\n", title: .rejected("control")),
  .plain("trailing newline", "Pasted\n", title: .rejected("control")),
  .plain("empty", "", title: .rejected("empty")),
  .plain("white space only", " \u{3000}\u{A0} ", title: .rejected("empty")),
  .plain("surrounding spaces", "  Trimmed  ", title: .accepted("Trimmed")),
  .plain("SQL: quote, semicolon and comment", "O'Brien'; DROP TABLE notes; --"),
  .plain("SQL: LIKE wildcards", "100% _done_ \\%"),
  .plain("SQL: tautology", "' OR '1'='1"),
  .plain("double quotes and backslashes", "\"quoted\" \\ back\\slash"),
  .plain("200 characters", String(repeating: "x", count: NotesRules.titleLimit)),
  .plain(
    "201 characters", String(repeating: "x", count: NotesRules.titleLimit + 1),
    title: .rejected("at most")),
  .plain("200 flags (1,600 bytes)", String(repeating: "🇫🇷", count: NotesRules.titleLimit)),
  // A regression case: NonEmptyText (Unicode White_Space) lets U+200B through, but
  // NotesRules.normalizedTitle (CharacterSet.whitespacesAndNewlines, which on this
  // Foundation contains U+200B) trims it away; titles are judged after trimming.
  BadInput(
    name: "zero-width space only", text: "\u{200B}", asTitle: .rejected("empty"),
    asBody: .accepted("\u{200B}")),
  .plain("right-to-left override", "\u{202E}txt.exe", title: .rejected("bidirectional")),
  .plain("left-to-right isolate", "a\u{2066}b\u{2069}", title: .rejected("U+2066")),
  .plain("zero-width space inside", "Wo\u{200B}rk", title: .rejected("invisible")),
  .plain("byte-order mark", "\u{FEFF}Work", title: .rejected("U+FEFF")),
  .plain("noncharacter", "Work\u{FFFF}", title: .rejected("noncharacters")),
  .plain("joined emoji and a Persian non-joiner", "👩‍👩‍👧 می\u{200C}خواهم"),
]

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct BadInputTests {
  /// Checks one outcome against a verdict: accepted and stored, or refused with nothing
  /// changed.
  func expect(
    _ verdict: Verdict,
    _ outcome: ActionOutcome,
    field: String,
    dispatcher: ActionDispatcher<NotesState>,
    before: NotesState,
    stored: String?,
    _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    switch verdict {
    case .accepted(let text):
      #expect(outcome.isCommitted, "\(context): \(outcome)", sourceLocation: sourceLocation)
      let storedVerbatim = stored == text
      #expect(
        storedVerbatim, "\(context): stored \(clip(stored as Any)), expected \(clip(text))",
        sourceLocation: sourceLocation)
    case .rejected(let fragment):
      guard case .invalid(let result) = outcome else {
        Issue.record(
          "\(context): expected a refusal, got \(outcome)", sourceLocation: sourceLocation)
        return
      }
      #expect(
        result.issues.contains { $0.field == field && $0.message.contains(fragment) },
        "\(context): \(result.issues)", sourceLocation: sourceLocation)
      expectReadable(result.issues, context, sourceLocation: sourceLocation)
      #expect(dispatcher.model.state == before, "\(context)", sourceLocation: sourceLocation)
      #expect(dispatcher.model.revision == 0, "\(context)", sourceLocation: sourceLocation)
      #expect(
        dispatcher.undoAvailability.value.undoName == nil, "\(context)",
        sourceLocation: sourceLocation)
    }
  }

  /// Every message is short and free of control characters, whatever the input was.
  func expectReadable(
    _ issues: [ValidationIssue], _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for issue in issues {
      #expect(!issue.message.isEmpty, "\(context)", sourceLocation: sourceLocation)
      #expect(issue.message.count < 300, "\(context): \(clip(issue.message))")
      #expect(
        !issue.message.unicodeScalars.contains { $0.properties.generalCategory == .control },
        "\(context): \(clip(issue.message))", sourceLocation: sourceLocation)
    }
  }

  @Test func titlesAreTrimmedOfExactlyWhatFoundationTrims() {
    // Every white space and newline scalar Foundation names, at either end, alone, inside,
    // and next to characters that combine with them.
    let spaces: [Unicode.Scalar] = (0...0x3000).compactMap(Unicode.Scalar.init).filter {
      CharacterSet.whitespacesAndNewlines.contains($0)
    }
    #expect(spaces.count > 20, "\(spaces.count) white space scalars")
    var titles = ["", "Plan", "a b", " \u{301}é", "\u{301} ", "👩‍👩‍👧 ", "x\u{200B}", "\u{FEFF}x"]
    for space in spaces.map(String.init) {
      titles += [space, space + "Plan", "Plan" + space, space + "a b" + space, space + space]
    }
    var random = SeededGenerator(seed: 27)
    let pieces = [
      "a", "é", "\u{301}", "三", " ", "\t", "\n", "\u{85}", "\u{A0}", "\u{2028}", "\u{3000}",
    ]
    for _ in 0..<2_000 {
      let count = Int.random(in: 0...6, using: &random)
      titles.append((0..<count).map { _ in pieces.randomElement(using: &random) ?? "" }.joined())
    }
    for title in titles {
      let expected = title.trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(
        NotesRules.normalizedTitle(title).unicodeScalars.elementsEqual(expected.unicodeScalars),
        "\(title.unicodeScalars.map { String($0.value, radix: 16) })")
    }
  }

  @Test(arguments: badInputs)
  func asATitleEveryActionAcceptsPlainTextOrRefusesWithAReason(input: BadInput) {
    titleActions(input)
  }

  func titleActions(_ input: BadInput) {
    let cases: [(String, String, any Action<NotesState>, (NotesState) -> String?)] = [
      (
        "CreateNotebook", "notebook title", CreateNotebook(title: input.text, now: t1),
        { $0.notebooks[NotebookID(rawValue: 4)]?.title }
      ),
      (
        "RenameNotebook", "notebook title", RenameNotebook(id: home, title: input.text),
        { $0.notebooks[home]?.title }
      ),
      (
        "CreateNote", "note title", CreateNote(notebookID: work, title: input.text, now: t1),
        { $0.notes[NoteID(rawValue: 4)]?.title }
      ),
      (
        "RenameNote", "note title", RenameNote(id: plan, title: input.text, now: t1),
        { $0.notes[plan]?.title }
      ),
    ]
    for (name, field, action, stored) in cases {
      let dispatcher = ActionDispatcher(model: Model(sampleState()))
      let before = dispatcher.model.state
      let outcome = dispatcher.dispatch(action)
      expect(
        input.asTitle, outcome, field: field, dispatcher: dispatcher, before: before,
        stored: stored(dispatcher.model.state), "\(name) with \(input.name)")
    }
  }

  @Test(arguments: badInputs)
  func asABodyEveryActionAcceptsPlainTextOrRefusesWithAReason(input: BadInput) {
    let cases: [(String, any Action<NotesState>, (NotesState) -> String?)] = [
      (
        "CreateNote", CreateNote(notebookID: work, title: "T", body: input.text, now: t1),
        { $0.notes[NoteID(rawValue: 4)]?.body }
      ),
      ("EditNoteBody", EditNoteBody(id: plan, body: input.text, now: t1), { $0.notes[plan]?.body }),
    ]
    for (name, action, stored) in cases {
      let dispatcher = ActionDispatcher(model: Model(sampleState()))
      let before = dispatcher.model.state
      let outcome = dispatcher.dispatch(action)
      expect(
        input.asBody, outcome, field: "note body", dispatcher: dispatcher, before: before,
        stored: stored(dispatcher.model.state), "\(name) with \(input.name)")
    }
  }

  @Test(arguments: badInputs)
  func theEditorSavesPlainTextOrRefusesAndKeepsTheDraft(input: BadInput) {
    editorSaves(input)
  }

  /// The editor drafts the body only; a title changes by `RenameNote`, whose bad inputs the
  /// actions' test above covers.
  func editorSaves(_ input: BadInput) {
    let verdict = input.asBody
    let dispatcher = ActionDispatcher(model: Model(sampleState()))
    let editor = EditorController(dispatcher: dispatcher) { t1 }
    let before = dispatcher.model.state
    editor.open(plan)
    editor.userEditedBody(input.text)
    let draft = editor.state.value
    let outcome = editor.save()
    if case .accepted(let text) = verdict, text == "Ship it" {
      // The input equals what is already there: nothing to save.
      #expect(outcome == .unchanged || outcome.isCommitted, "\(input.name)")
    } else {
      expect(
        verdict, outcome, field: "note body", dispatcher: dispatcher, before: before,
        stored: dispatcher.model.state.notes[plan]?.body, "editor note body")
    }
    if case .rejected = verdict {
      #expect(editor.state.value == draft, "the draft is kept after a refusal")
    }
    editor.cancel()
  }

  @Test(arguments: badInputs)
  func theValidatorsThemselvesReportEveryIssueWithAReadableMessage(input: BadInput) {
    validators(input)
  }

  func validators(_ input: BadInput) {
    let title = NotesRules.titleIssues(input.text, field: "note title")
    let notebookTitle = NotesRules.notebookTitleIssues(input.text, in: sampleState())
    let body = NotesRules.bodyIssues(input.text)
    let pieces: [[ValidationIssue]] = [
      title, notebookTitle, body,
      NonEmptyText(field: "f").issues(in: input.text),
      MaximumLength(field: "f", limit: NotesRules.titleLimit).issues(in: input.text),
      NoControlCharacters(field: "f").issues(in: input.text),
      UniqueWithin(field: "f", existing: [input.text, "Work"]) { $0.lowercased() }
        .issues(in: "work"),
    ]
    for issues in pieces { expectReadable(issues, input.name) }
    switch input.asTitle {
    case .accepted(let stored):
      #expect(title.isEmpty && notebookTitle.isEmpty, "\(input.name)")
      #expect(NotesRules.normalizedTitle(input.text) == stored)
    case .rejected(let fragment):
      #expect(title.contains { $0.message.contains(fragment) }, "\(input.name): \(title)")
      #expect(notebookTitle.map(\.field).allSatisfy { $0 == "notebook title" })
    }
    switch input.asBody {
    case .accepted: #expect(body.isEmpty, "\(input.name)")
    case .rejected(let fragment):
      #expect(body.contains { $0.message.contains(fragment) }, "\(input.name): \(body)")
    }
  }

  @Test(arguments: [0, -1, 999_999, Int64.max, Int64.min])
  func unknownIDsAreRefusedWithAReasonAndChangeNothing(raw: Int64) {
    let notebook = NotebookID(rawValue: raw)
    let note = NoteID(rawValue: raw)
    let cases: [(String, any Action<NotesState>)] = [
      ("notebook", RenameNotebook(id: notebook, title: "Renamed")),
      ("notebook", DeleteNotebook(id: notebook, deletingNotes: true)),
      ("notebook", CreateNote(notebookID: notebook, title: "T", now: t1)),
      ("note", RenameNote(id: note, title: "Renamed", now: t1)),
      ("note", EditNoteBody(id: note, body: "text", now: t1)),
      ("note", MoveNote(id: note, to: home, now: t1)),
      ("notebook", MoveNote(id: plan, to: notebook, now: t1)),
      ("note", SetNotePinned(id: note, isPinned: true)),
      ("note", DeleteNote(id: note)),
    ]
    for (field, action) in cases {
      let dispatcher = ActionDispatcher(model: Model(sampleState()))
      let before = dispatcher.model.state
      expect(
        .rejected("\(raw)"), dispatcher.dispatch(action), field: field, dispatcher: dispatcher,
        before: before, stored: nil, "\(action.name) with id \(raw)")
    }

    let dispatcher = ActionDispatcher(model: Model(sampleState()))
    let deletion = NotebookDeletion(dispatcher: dispatcher)
    #expect(deletion.deleteRequested(notebook).description.contains("\(raw)"))
    let answer = deletion.answer(Int(truncatingIfNeeded: raw), confirmed: true)
    #expect({ if case .rejected = answer { true } else { false } }(), "\(answer)")
    #expect(deletion.confirmations.pending.isEmpty)
    let editor = EditorController(dispatcher: dispatcher) { t1 }
    editor.open(note)
    #expect(editor.state.value == .closed)
    editor.userEditedBody("typed into nothing")
    #expect(editor.save() == .rejected("No note is open."))
    let sidebar = SidebarController(model: dispatcher.model)
    #expect(!sidebar.select(notebook))
    let list = NoteListController(model: dispatcher.model)
    #expect(!list.lens.select(note))
    list.notebook = notebook
    #expect(list.lens.rows.isEmpty)
    #expect(dispatcher.model.state == sampleState())
    #expect(dispatcher.model.revision == 0)
    editor.cancel()
    sidebar.cancel()
    list.cancel()
  }

  @Test func notebookTitlesAreUniqueIgnoringCaseAndUnicodeNormalization() {
    let dispatcher = ActionDispatcher(model: Model(sampleState()))
    #expect(dispatcher.dispatch(CreateNotebook(title: "Émile", now: t1)).isCommitted)
    for duplicate in ["WORK", " work\u{3000}", "E\u{301}MILE", "émile"] {
      let before = dispatcher.model.state
      let revision = dispatcher.model.revision
      let outcome = dispatcher.dispatch(CreateNotebook(title: duplicate, now: t1))
      guard case .invalid(let result) = outcome else {
        Issue.record("\(swiftLiteral(duplicate)) was accepted")
        continue
      }
      #expect(result.issues.map(\.field) == ["notebook title"])
      #expect(result.summary?.contains("already exists") == true)
      #expect(dispatcher.model.state == before)
      #expect(dispatcher.model.revision == revision)
    }
    // Renaming a notebook to its own title in another case is no duplicate.
    #expect(dispatcher.dispatch(RenameNotebook(id: work, title: "WORK")).isCommitted)
  }

  @Test func searchTextIsPlainTextWhateverItHolds() {
    var state = sampleState()
    state.notes = EntityTable([
      Note(id: plan, notebookID: work, title: "Plan", body: "Ship it", created: t0),
      Note(id: NoteID(rawValue: 4), notebookID: work, title: "100% done", created: t0),
      Note(id: NoteID(rawValue: 5), notebookID: home, title: "O'Brien", body: "a_b", created: t0),
    ])
    let model = Model(state)
    let list = NoteListController(model: model)
    let searches: [(String, [Int64])] = [
      ("%", [4]),
      ("_", [5]),
      ("'", [5]),
      ("' OR '1'='1", []),
      ("\u{1B}[2J", []),
      ("\u{0}", []),
      (String(decoding: [0xFF], as: UTF8.self), []),
      (String(repeating: "a", count: mebibyte), []),
      ("  plan  ", [3]),
    ]
    for (search, expected) in searches {
      list.search = search
      #expect(
        list.lens.rows.map(\.id.rawValue).sorted() == expected, "\(clip(swiftLiteral(search)))")
      #expect(
        list.lens.rows
          == NoteListController.recomputedRows(
            for: model.state, notebook: nil, search: search, sort: list.sort))
    }
    list.cancel()
  }
}
