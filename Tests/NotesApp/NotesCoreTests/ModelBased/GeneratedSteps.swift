// The vocabulary of the randomized model-based test: steps as plain values.
//
// A step never holds a concrete id or a date. It names entities by position (`.at(k)`: the
// k-th id in ascending order, modulo how many there are) or by an explicit raw id
// (`.id(n)`, which may or may not exist), and times by ticks. The runner resolves a step
// against the reference model just before running it, so a step stays meaningful when the
// shrinker removes the steps before it. Every description is Swift source: a printed
// sequence can be pasted into `[GeneratedStep]` to replay it.

import Airframe
import Foundation
@_spi(Instrumentation) import NotesCore
import Synchronization

/// Text a step carries; long repetitions print compactly.
enum GeneratedText: Equatable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  case literal(String)
  case repeated(String, count: Int)

  init(stringLiteral value: String) { self = .literal(value) }

  /// The text itself.
  ///
  /// Repetitions are built once and shared: a 1 MB body is generated for many steps, and
  /// building it each time would dominate a run.
  var value: String {
    switch self {
    case .literal(let text): text
    case .repeated(let text, let count):
      repetitions.withLock { built in
        let key = "\(count) \(text)"
        if let value = built[key] { return value }
        let value = String(repeating: text, count: count)
        built[key] = value
        return value
      }
    }
  }

  var description: String {
    switch self {
    case .literal(let text): swiftLiteral(text)
    case .repeated(let text, let count): ".repeated(\(swiftLiteral(text)), count: \(count))"
    }
  }
}

/// An entity named by position among the existing ids, or by an explicit raw id.
enum EntityRef: Equatable, Sendable, CustomStringConvertible {
  /// The k-th existing id in ascending order, modulo the count; a missing id if none exists.
  case at(Int)
  /// This raw id, whether or not it exists.
  case id(Int64)

  /// The raw id used when `.at` finds no entity at all.
  static let nothingThere: Int64 = 999_999

  func resolve(in ids: [Int64]) -> Int64 {
    switch self {
    case .at(let index): ids.isEmpty ? Self.nothingThere : ids[index % ids.count]
    case .id(let raw): raw
    }
  }

  var description: String {
    switch self {
    case .at(let index): ".at(\(index))"
    case .id(let raw): ".id(\(raw))"
    }
  }
}

/// One Notes action, before resolution.
enum GeneratedOp: Equatable, Sendable, CustomStringConvertible {
  case createNotebook(GeneratedText, tick: Int)
  case renameNotebook(EntityRef, GeneratedText)
  case deleteNotebook(EntityRef, deletingNotes: Bool)
  case createNote(EntityRef, GeneratedText, body: GeneratedText, tick: Int)
  case renameNote(EntityRef, GeneratedText, tick: Int)
  case editBody(EntityRef, GeneratedText, tick: Int)
  case moveNote(EntityRef, to: EntityRef, tick: Int)
  case setPinned(EntityRef, Bool)
  case deleteNote(EntityRef)
  /// Brings back a version of a note: a title and text as the note's history would hold
  /// them (generated, so they may break today's rules, as an old program's version might).
  case restoreVersion(EntityRef, GeneratedText, body: GeneratedText, tick: Int)
  /// Sets how many days Recently Deleted keeps notes (generated across and beyond the range
  /// the app allows).
  case keepDeletedNotes(days: Int)
  /// Restores a note of Recently Deleted (the reference resolves it among those).
  case restoreNote(EntityRef, tick: Int)
  /// Deletes a note of Recently Deleted for good; `nil` empties it.
  case deleteForGood(EntityRef?)

  var description: String {
    switch self {
    case .createNotebook(let title, let tick): ".createNotebook(\(title), tick: \(tick))"
    case .renameNotebook(let ref, let title): ".renameNotebook(\(ref), \(title))"
    case .deleteNotebook(let ref, let deleting):
      ".deleteNotebook(\(ref), deletingNotes: \(deleting))"
    case .createNote(let ref, let title, let body, let tick):
      ".createNote(\(ref), \(title), body: \(body), tick: \(tick))"
    case .renameNote(let ref, let title, let tick): ".renameNote(\(ref), \(title), tick: \(tick))"
    case .editBody(let ref, let body, let tick): ".editBody(\(ref), \(body), tick: \(tick))"
    case .moveNote(let ref, let target, let tick):
      ".moveNote(\(ref), to: \(target), tick: \(tick))"
    case .setPinned(let ref, let pinned): ".setPinned(\(ref), \(pinned))"
    case .deleteNote(let ref): ".deleteNote(\(ref))"
    case .restoreVersion(let ref, let title, let body, let tick):
      ".restoreVersion(\(ref), \(title), body: \(body), tick: \(tick))"
    case .keepDeletedNotes(let days): ".keepDeletedNotes(days: \(days))"
    case .restoreNote(let ref, let tick): ".restoreNote(\(ref), tick: \(tick))"
    case .deleteForGood(let ref): ".deleteForGood(\(optional(ref)))"
    }
  }
}

/// The re-entrancy policies, one asynchronous command per policy.
enum RunPolicy: Int, CaseIterable, Sendable, CustomStringConvertible {
  case rejectWhileRunning
  case cancelPrevious
  case queue
  case allowConcurrent

  var policy: ReentrancyPolicy {
    switch self {
    case .rejectWhileRunning: .rejectWhileRunning
    case .cancelPrevious: .cancelPrevious
    case .queue: .queue
    case .allowConcurrent: .allowConcurrent
    }
  }

  var description: String {
    switch self {
    case .rejectWhileRunning: ".rejectWhileRunning"
    case .cancelPrevious: ".cancelPrevious"
    case .queue: ".queue"
    case .allowConcurrent: ".allowConcurrent"
    }
  }
}

/// One thing a user, the server or a background task does to the Notes app.
enum GeneratedStep: Equatable, Sendable, CustomStringConvertible {
  // Actions through the dispatcher.
  case dispatch(GeneratedOp)
  case group([GeneratedOp])
  case undo
  case redo
  case newNoteFromMenu(GeneratedText, tick: Int)
  // Notebook deletion with confirmation.
  case requestNotebookDeletion(EntityRef)
  case answerDeletion(Int, confirmed: Bool)
  // View state.
  case selectNotebook(EntityRef?)
  case filterNotebook(EntityRef?)
  case search(GeneratedText)
  case sort(NoteSort)
  case selectNote(EntityRef?)
  case showNote(EntityRef?)
  case showNotebook(EntityRef?)
  // The editor.
  case openEditor(EntityRef?)
  case typeBody(GeneratedText)
  case save(tick: Int)
  case saveTyping(tick: Int)
  case endTypingRun
  case keepMine
  case takeTheirs
  // Sync, driven by a service the test controls.
  case startSync
  case syncProgress(Double)
  case finishSync(tick: Int)
  case failSync(String)
  case cancelSync
  // Asynchronous commands, one per re-entrancy policy.
  case trigger(RunPolicy, GeneratedOp)
  case release(RunPolicy, Int, succeeds: Bool)
  case cancelRuns(RunPolicy)

  var description: String {
    switch self {
    case .dispatch(let op): ".dispatch(\(op))"
    case .group(let ops): ".group([\(ops.map(\.description).joined(separator: ", "))])"
    case .undo: ".undo"
    case .redo: ".redo"
    case .newNoteFromMenu(let title, let tick): ".newNoteFromMenu(\(title), tick: \(tick))"
    case .requestNotebookDeletion(let ref): ".requestNotebookDeletion(\(ref))"
    case .answerDeletion(let index, let confirmed):
      ".answerDeletion(\(index), confirmed: \(confirmed))"
    case .selectNotebook(let ref): ".selectNotebook(\(optional(ref)))"
    case .filterNotebook(let ref): ".filterNotebook(\(optional(ref)))"
    case .search(let text): ".search(\(text))"
    case .sort(let sort): ".sort(.\(sort.rawValue))"
    case .selectNote(let ref): ".selectNote(\(optional(ref)))"
    case .showNote(let ref): ".showNote(\(optional(ref)))"
    case .showNotebook(let ref): ".showNotebook(\(optional(ref)))"
    case .openEditor(let ref): ".openEditor(\(optional(ref)))"
    case .typeBody(let text): ".typeBody(\(text))"
    case .save(let tick): ".save(tick: \(tick))"
    case .saveTyping(let tick): ".saveTyping(tick: \(tick))"
    case .endTypingRun: ".endTypingRun"
    case .keepMine: ".keepMine"
    case .takeTheirs: ".takeTheirs"
    case .startSync: ".startSync"
    case .syncProgress(let progress): ".syncProgress(\(progress))"
    case .finishSync(let tick): ".finishSync(tick: \(tick))"
    case .failSync(let message): ".failSync(\(swiftLiteral(message)))"
    case .cancelSync: ".cancelSync"
    case .trigger(let policy, let op): ".trigger(\(policy), \(op))"
    case .release(let policy, let index, let succeeds):
      ".release(\(policy), \(index), succeeds: \(succeeds))"
    case .cancelRuns(let policy): ".cancelRuns(\(policy))"
    }
  }

  /// A short name of the step's kind, for the coverage figures.
  var kind: String {
    switch self {
    case .dispatch(let op): "dispatch." + String(op.description.dropFirst().prefix { $0 != "(" })
    default: String(description.dropFirst().prefix { $0 != "(" })
    }
  }
}

private let repetitions = Mutex<[String: String]>([:])

/// The date of a tick: ticks repeat on purpose, so equal modification dates occur.
func tickDate(_ tick: Int) -> Date { Date(timeIntervalSince1970: 10_000 + Double(tick)) }

/// When every deletion of a run happens, as Recently Deleted records it (the app's and the
/// reference's).
let deletionDate = tickDate(0)

private func optional(_ ref: EntityRef?) -> String { ref.map(\.description) ?? "nil" }

/// `text` as a Swift string literal, escaping what a terminal would interpret.
func swiftLiteral(_ text: String) -> String {
  var result = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    case "\n": result += "\\n"
    case "\t": result += "\\t"
    case "\r": result += "\\r"
    case "\0": result += "\\0"
    default:
      if scalar.properties.generalCategory == .control || scalar.value > 0xFFFF {
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
  }
  return result + "\""
}
