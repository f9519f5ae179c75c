// Fuzz target: key bytes through the decoder and the key mapping into the whole app.
//
// The input is what the terminal delivers: bytes go through
// `InputDecoder`, as `notes` reads them, except that 0xFE followed by a byte stands for a
// key ncurses decodes itself (arrows, Home, End, Page Up/Down, Shift-Tab, Delete,
// Backspace, Enter, F1–F12), chosen by that byte. (0xFE is never UTF-8, so the decoder
// only ever drops it.)
//
// Contract checked for every input, on the sample library in memory:
// - No key crashes the app, and every render fills exactly the screen it is given.
// - The library stays valid whatever was typed: every title and body passes the rules
//   (NotesRules), and every note's notebook exists.
// - Quitting saves the draft: after `shutdown()` the editor has no unsaved edits left.

import Airframe
import Foundation
import NotesCore
import NotesFixtures
import NotesTerminalUI

@testable import NotesPresentation

/// The keys ncurses decodes from escape sequences, in the order 0xFE's next byte picks.
private let namedKeys: [Key] =
  [
    .up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .backTab, .delete,
    .backspace, .enter,
  ] + (1...12).map { .function($0) }

/// The keys the input stands for, decoded as `notes` decodes one read (bracketed paste
/// included).
private func keys(_ bytes: UnsafeBufferPointer<UInt8>) -> [Key] {
  var decoder = InputDecoder()
  var index = 0
  while index < bytes.count {
    let byte = bytes[index]
    index += 1
    if byte == 0xFE, index < bytes.count {
      decoder.feed(key: namedKeys[Int(bytes[index]) % namedKeys.count])
      index += 1
    } else {
      decoder.feed(byte: byte)
    }
  }
  return decoder.finishRead()
}

/// A fixed clock, so runs repeat.
private let fixedDate = Date(timeIntervalSinceReferenceDate: 800_000_000)

@MainActor
private func check(_ keys: [Key]) {
  let app = TerminalApplication(
    model: Model(SampleLibrary.state(now: fixedDate)),
    syncService: SimulatedSyncService(steps: 2, stepDelay: .zero), now: { fixedDate })
  // A small screen after every key (a render is most of the cost in this instrumented
  // build), alternating two sizes so clipping is exercised, and a large one at the end.
  let (width, height) = keys.count % 2 == 0 ? (24, 8) : (48, 14)
  for key in keys {
    app.handle(key)
    if app.isFinished { break }
    expectFills(app.render(width: width, height: height), width, height, after: key)
  }
  expectFills(app.render(width: 120, height: 40), 120, 40, after: keys.last)
  app.shutdown()
  let state = app.session.model.state
  for notebook in state.notebooks.elements {
    let issues = NotesRules.titleIssues(notebook.title, field: "notebook title")
    expect(issues.isEmpty, "notebook title \(notebook.title.debugDescription): \(issues)")
  }
  for note in state.notes.elements {
    let issues =
      NotesRules.titleIssues(note.title, field: "note title") + NotesRules.bodyIssues(note.body)
    expect(issues.isEmpty, "note \(note.title.debugDescription): \(issues)")
    expect(state.notebooks[note.notebookID] != nil, "a note in a notebook that does not exist")
  }
  expect(!app.session.editorState.value.isDirty, "quitting left an unsaved draft")
}

/// Checks that a render fills exactly the screen it was given.
private func expectFills(_ buffer: ScreenBuffer, _ width: Int, _ height: Int, after key: Key?) {
  expect(
    buffer.width == width && buffer.height == height,
    "a \(width) × \(height) render is \(buffer.width) × \(buffer.height) after "
      + String(describing: key))
}

/// libFuzzer's entry point: checks the contract on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let keys = keys(UnsafeBufferPointer(start: start, count: count))
  MainActor.assumeIsolated { check(keys) }
  return 0
}
