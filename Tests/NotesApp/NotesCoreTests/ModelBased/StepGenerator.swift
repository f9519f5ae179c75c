// StepGenerator: a seeded, state-independent generator of step sequences.
//
// The whole sequence is drawn from the seed before anything runs, so a seed names one
// sequence forever, and the shrinker can cut it freely. Roughly a quarter of the texts are
// invalid (empty, white space only, control and escape characters, too long), ids are
// sometimes explicit raw ids that may not exist, and titles come from a small pool so
// that duplicates ignoring case happen often.

import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore

struct StepGenerator {
  private var random: SeededGenerator

  init(seed: UInt64) { random = SeededGenerator(seed: seed) }

  /// `count` steps.
  ///
  /// Now and then a burst of typing: edits each followed by a typing save, in a row, so
  /// that typing saves meet the run they can join.
  mutating func steps(_ count: Int) -> [GeneratedStep] {
    var steps: [GeneratedStep] = []
    while steps.count < count {
      guard chance(2) else {
        steps.append(step())
        continue
      }
      for _ in 0..<Int.random(in: 2...4, using: &random) {
        steps.append(.typeBody(body()))
        steps.append(.saveTyping(tick: tick()))
      }
    }
    return Array(steps.prefix(count))
  }

  static let validTitles: [GeneratedText] = [
    "Work", "work", "  Home ", "Ideas", "IDEAS", "Straße", "Émile", "emile", "三体", "🎉 Party",
    "Plan", "Groceries", "a", "Z", "O'Brien; DROP TABLE notes;--", "100% done", "\u{FFFD}",
    .repeated("x", count: 200), "Note", "note ",
  ]
  static let invalidTitles: [GeneratedText] = [
    "", "   ", "\t", "Tab\there", "Line\nbreak", "\u{1B}[2J", "nul\u{0}", "del\u{7F}",
    .repeated("x", count: 201), .repeated("é", count: 201),
  ]
  static let validBodies: [GeneratedText] = [
    "", "Ship it", "Milk\nEggs", "tabs\tand\r\nlines", "Émile et 三体", "'; DELETE FROM notes; --",
    "%_%", .repeated("b", count: 5_000), "plan B",
  ]
  static let invalidBodies: [GeneratedText] = ["\u{1B}[31mred", "nul\u{0}", "bell\u{7}"]
  static let searches: [GeneratedText] = [
    "", "plan", "PLAN", "e", "emile", "三", "  work  ", "%", "'", "zzz", "note",
  ]

  private mutating func chance(_ percent: Int) -> Bool {
    Int.random(in: 0..<100, using: &random) < percent
  }

  private mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &random)! }

  private mutating func tick() -> Int { Int.random(in: 0..<60, using: &random) }

  private mutating func title() -> GeneratedText {
    chance(22) ? pick(Self.invalidTitles) : pick(Self.validTitles)
  }

  private mutating func body() -> GeneratedText {
    // Rare: a body one character over the limit (BadInputTests covers big inputs in full).
    if Int.random(in: 0..<1_000, using: &random) < 3 {
      return .repeated("b", count: NotesRules.bodyLimit + 1)
    }
    return chance(10) ? pick(Self.invalidBodies) : pick(Self.validBodies)
  }

  private mutating func ref() -> EntityRef {
    guard chance(7) else { return .at(Int.random(in: 0..<8, using: &random)) }
    return .id(pick([0, -1, 999_999, Int64.random(in: 1...40, using: &random)]))
  }

  private mutating func optionalRef() -> EntityRef? { chance(15) ? nil : ref() }

  /// The window title may be pointed at ids that do not exist yet: a later create or redo
  /// inserts them.
  private mutating func titleRef() -> EntityRef? { optionalRef() }

  mutating func op() -> GeneratedOp {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<10: .createNotebook(title(), tick: tick())
    case 10..<18: .renameNotebook(ref(), title())
    case 18..<24: .deleteNotebook(ref(), deletingNotes: chance(50))
    case 24..<44: .createNote(ref(), title(), body: body(), tick: tick())
    case 44..<56: .renameNote(ref(), title(), tick: tick())
    case 56..<64: .editBody(ref(), body(), tick: tick())
    case 64..<68: .restoreVersion(ref(), title(), body: body(), tick: tick())
    case 68..<78: .moveNote(ref(), to: ref(), tick: tick())
    case 78..<90: .setPinned(ref(), chance(50))
    case 90..<95: .deleteNote(ref())
    case 95..<97: .restoreNote(ref(), tick: tick())
    case 97: .keepDeletedNotes(days: pick([0, 1, 7, 30, 365, 366]))
    default: .deleteForGood(optionalRef())
    }
  }

  private mutating func policy() -> RunPolicy { pick(RunPolicy.allCases) }

  mutating func step() -> GeneratedStep {
    switch Int.random(in: 0..<1_000, using: &random) {
    case 0..<280: .dispatch(op())
    case 280..<310: .group((0..<Int.random(in: 1...4, using: &random)).map { _ in op() })
    case 310..<390: .undo
    case 390..<440: .redo
    case 440..<460: .newNoteFromMenu(title(), tick: tick())
    case 460..<490: .requestNotebookDeletion(ref())
    case 490..<510: .answerDeletion(Int.random(in: 0..<3, using: &random), confirmed: chance(60))
    case 510..<530: .selectNotebook(optionalRef())
    case 530..<550: .filterNotebook(optionalRef())
    case 550..<570: .search(pick(Self.searches))
    case 570..<585: .sort(pick(NoteSort.allCases))
    case 585..<605: .selectNote(optionalRef())
    case 605..<620: .showNote(titleRef())
    case 620..<635: .showNotebook(titleRef())
    case 635..<675: .openEditor(optionalRef())
    // Renames under an open draft: the editor shows the stored title, draft or not.
    case 675..<705: .dispatch(.renameNote(ref(), title(), tick: tick()))
    case 705..<735: .typeBody(body())
    case 735..<752: .save(tick: tick())
    case 752..<768: .saveTyping(tick: tick())
    case 768..<770: .endTypingRun
    case 770..<780: .keepMine
    case 780..<790: .takeTheirs
    case 790..<815: .startSync
    case 815..<840: .syncProgress(pick([0, 0.25, 0.4, 0.5, 1, -0.5, 1.5]))
    case 840..<855: .finishSync(tick: tick())
    case 855..<865: .failSync(pick(["Server unavailable", "Offline; retry later.", "50% lost"]))
    case 865..<872: .cancelSync
    case 872..<927: .trigger(policy(), op())
    case 927..<990:
      .release(policy(), Int.random(in: 0..<3, using: &random), succeeds: chance(85))
    default: .cancelRuns(policy())
    }
  }
}
