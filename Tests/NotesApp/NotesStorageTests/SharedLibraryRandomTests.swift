// Seeded random actions from two or three processes on one library, in random
// interleavings with their catch-up ticks: the file and every model end equal, no save
// fails, and no committed edit ever replaced a text its writer had not seen.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct SharedLibraryRandomTests {
  nonisolated static let seeds: [UInt64] = (0..<24).map { 0x5EED_1200 + $0 }
  nonisolated static let steps = 120

  @Test(arguments: seeds)
  func randomWritersConvergeAndLoseNoEdit(seed: UInt64) throws {
    var random = SeededRandomNumberGenerator(seed: seed)
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.sqlite")
    let processes = try (0..<Int.random(in: 2...3, using: &random)).map { _ in
      try LibraryProcess(path: path)
    }
    defer { for process in processes { process.close() } }
    let now = Date(timeIntervalSinceReferenceDate: 5_000)
    // The text each note holds in the file after the last commit that changed it.
    var committedBody: [NoteID: String] = [:]
    var committedTitle: [NoteID: String] = [:]
    var counts = (committed: 0, refused: 0)

    for step in 0..<Self.steps {
      let process = processes.randomElement(using: &random)!
      if Bool.random(using: &random), try process.catchUp() { continue }
      let state = process.model.state
      let notes = state.notes.elements.map(\.id).sorted { $0.rawValue < $1.rawValue }
      let notebooks = state.notebooks.elements.map(\.id).sorted { $0.rawValue < $1.rawValue }
      let action: any Action<NotesState>
      var basedOn: (note: NoteID, body: String?, title: String?)?
      let choice = notebooks.isEmpty ? 0 : Int.random(in: 0..<10, using: &random)
      switch choice {
      case 0:
        action = CreateNotebook(title: "Notebook \(step)", now: now)
      case 1, 2:
        action = CreateNote(
          notebookID: notebooks.randomElement(using: &random)!, title: "Note \(step)",
          body: "body \(step)", now: now)
      case 3...5 where !notes.isEmpty:
        let id = notes.randomElement(using: &random)!
        let seen = state.notes[id]!.body
        action = EditNoteBody(id: id, body: "\(seen) +\(step)", now: now, expectedBody: seen)
        basedOn = (id, seen, nil)
      case 6 where !notes.isEmpty:
        let id = notes.randomElement(using: &random)!
        let seen = state.notes[id]!.title
        action = RenameNote(id: id, title: "Title \(step)", now: now, expectedTitle: seen)
        basedOn = (id, nil, seen)
      case 7 where !notes.isEmpty:
        action = DeleteNote(id: notes.randomElement(using: &random)!)
      case 8 where !notes.isEmpty:
        action = MoveNote(
          id: notes.randomElement(using: &random)!,
          to: notebooks.randomElement(using: &random)!, now: now)
      default:
        action = CreateNote(
          notebookID: notebooks.randomElement(using: &random)!, title: "Other \(step)", now: now)
      }
      let outcome = process.dispatcher.dispatch(action)
      switch outcome {
      case .committed:
        counts.committed += 1
        if let basedOn {
          // Compare and set held: the text replaced is the one the writer had seen.
          if let body = basedOn.body, let before = committedBody[basedOn.note] {
            #expect(before == body, "seed \(seed) step \(step): an edit replaced unseen text")
          }
          if let title = basedOn.title, let before = committedTitle[basedOn.note] {
            #expect(before == title, "seed \(seed) step \(step): a rename replaced an unseen title")
          }
        }
      case .invalid, .unchanged:
        counts.refused += 1
      default:
        Issue.record("seed \(seed) step \(step): \(action.name): \(outcome)")
      }
      // After a commit the writer's state is the file's: record what each note now holds.
      if outcome.isCommitted {
        for note in process.model.state.notes.elements {
          committedBody[note.id] = note.body
          committedTitle[note.id] = note.title
        }
        let present = Set(process.model.state.notes.elements.map(\.id))
        committedBody = committedBody.filter { present.contains($0.key) }
        committedTitle = committedTitle.filter { present.contains($0.key) }
      }
    }

    for process in processes { try process.catchUp() }
    let reader = try NotesDatabase(path: path)
    let stored = try reader.loadState()
    reader.close()
    for (index, process) in processes.enumerated() {
      var state = process.model.state
      state.sync = stored.sync
      #expect(state == stored, "seed \(seed): process \(index) differs from the file")
    }
    #expect(counts.committed > Self.steps / 3, "seed \(seed): \(counts)")
    #expect(try RawDatabase.integrityCheck(path) == "ok")
  }
}
