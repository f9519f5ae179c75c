// Randomized model-based testing of NotesCore.
//
// CI runs a fixed budget: 200 seeded sequences of 200 steps each. Environment variables
// run more, or replay one seed:
//
//   AIRFRAME_SOAK=1                5,000 sequences × 400 steps from a base seed taken from
//                                  the clock (printed, so any failure can be replayed)
//   AIRFRAME_MBT_SEQUENCES=N       N sequences
//   AIRFRAME_MBT_STEPS=N           N steps per sequence
//   AIRFRAME_MBT_BASE_SEED=S       seeds S, S+1, …
//   AIRFRAME_MBT_SEED=S            only seed S (what a failure report tells you to run)
//
// A failure records the seed, the first disagreement, and a shrunk sequence written as
// Swift, which can be pasted into `ModelBasedTests.scenarios`.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import Testing

struct ModelBasedBudget {
  var sequences = 200
  var steps = 200
  var baseSeed: UInt64 = 2_711_617_536
  var replaySeed: UInt64?

  static func fromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Self {
    var budget = Self()
    if environment["AIRFRAME_SOAK"] == "1" {
      budget.sequences = 5_000
      budget.steps = 400
      budget.baseSeed = UInt64(Date().timeIntervalSince1970)
    }
    if let count = environment["AIRFRAME_MBT_SEQUENCES"].flatMap(Int.init) {
      budget.sequences = count
    }
    if let count = environment["AIRFRAME_MBT_STEPS"].flatMap(Int.init) { budget.steps = count }
    if let seed = environment["AIRFRAME_MBT_BASE_SEED"].flatMap(UInt64.init) {
      budget.baseSeed = seed
    }
    budget.replaySeed = environment["AIRFRAME_MBT_SEED"].flatMap(UInt64.init)
    return budget
  }

  var seeds: [UInt64] {
    if let replaySeed { return [replaySeed] }
    return (0..<sequences).map { baseSeed &+ UInt64($0) }
  }
}

@Suite(.noLiveBindings, .timeLimit(.minutes(30)))
@MainActor
struct ModelBasedTests {
  /// Hand-written sequences that pin down interleavings worth keeping in view.
  nonisolated static let scenarios: [[GeneratedStep]] = [
    // A queue commits in trigger order even when the second run's work returns first.
    [
      .trigger(.queue, .createNotebook("First", tick: 1)),
      .trigger(.queue, .createNotebook("Second", tick: 2)),
      .release(.queue, 1, succeeds: true),
      .release(.queue, 0, succeeds: true),
      .undo,
    ],
    // A superseded run's late result is dropped; the latest one commits.
    [
      .trigger(.cancelPrevious, .renameNotebook(.at(0), "Old")),
      .trigger(.cancelPrevious, .renameNotebook(.at(0), "New")),
      .release(.cancelPrevious, 1, succeeds: true),
      .release(.cancelPrevious, 0, succeeds: true),
    ],
    // A change from elsewhere while the draft has edits is a conflict, not an overwrite.
    [
      .openEditor(.at(0)),
      .typeBody("mine"),
      .dispatch(.editBody(.at(0), "theirs", tick: 3)),
      .save(tick: 4),
      .keepMine,
      .save(tick: 5),
      .undo,
    ],
    // A cancelled sync returns to idle with the previous time at its next step.
    [.startSync, .syncProgress(0.4), .cancelSync, .startSync, .syncProgress(0.9), .startSync],
    // Confirmed deletion of a notebook with notes, then undo and redo.
    [
      .requestNotebookDeletion(.at(0)), .requestNotebookDeletion(.at(0)),
      .answerDeletion(0, confirmed: true), .undo, .redo, .answerDeletion(0, confirmed: true),
    ],
    // Typing saves in a row are one undo step; a sync in between does not end the run, an
    // undo does.
    [
      .openEditor(.at(1)), .typeBody("a"), .saveTyping(tick: 1), .startSync, .typeBody("ab"),
      .saveTyping(tick: 2), .syncProgress(0.5), .typeBody("abT"), .saveTyping(tick: 3), .undo,
      .redo, .typeBody("abc"), .saveTyping(tick: 4), .undo, .undo, .redo, .endTypingRun,
      .typeBody("x"), .saveTyping(tick: 5), .typeBody("xy"), .save(tick: 6), .undo,
    ],
    // The undo history keeps the latest 100 steps.
    (0..<130).map { .dispatch(.createNotebook(.literal("Notebook \($0)"), tick: $0)) }
      + Array(repeating: .undo, count: 105) + [.redo, .redo],
  ]

  @Test(arguments: 0..<ModelBasedTests.scenarios.count)
  func scenarioAgreesWithTheReferenceModel(index: Int) async {
    var statistics = RunStatistics()
    let failure = await ModelBasedRun.run(
      Self.scenarios[index], initial: SampleLibrary.state(now: t0), statistics: &statistics)
    #expect(failure == nil, "\(failure.map(\.description) ?? "")")
  }

  @Test func randomSequencesAgreeWithTheReferenceAndEveryControllerWithARecomputation() async {
    let budget = ModelBasedBudget.fromEnvironment()
    let seeds = budget.seeds
    var statistics = RunStatistics()
    var reported = 0
    let clock = ContinuousClock()
    let start = clock.now
    for seed in seeds {
      var generator = StepGenerator(seed: seed)
      let steps = generator.steps(budget.steps)
      let initial = ModelBasedRun.initialState(seed: seed)
      guard
        let failure = await ModelBasedRun.run(steps, initial: initial, statistics: &statistics)
      else { continue }
      reported += 1
      guard reported <= 3 else { continue }
      var shrinker = Shrinker(initial: initial, fault: nil, area: failure.area)
      let shrunk = await shrinker.shrink(steps, failingAt: failure.stepIndex)
      var ignored = RunStatistics()
      let shrunkFailure = await ModelBasedRun.run(shrunk, initial: initial, statistics: &ignored)
      Issue.record(
        Comment(
          rawValue: Self.failureReport(
            seed: seed, steps: steps.count, failure: failure, shrunk: shrunk,
            shrunkFailure: shrunkFailure, shrinkRuns: shrinker.runs)))
    }
    let elapsed = clock.now - start
    let range = seeds.count == 1 ? "seed \(seeds[0])" : "seeds \(seeds[0])…\(seeds.last!)"
    print(
      "model-based: \(grouped(seeds.count)) sequences × \(grouped(budget.steps)) steps, "
        + "\(grouped(statistics.steps)) steps, \(grouped(statistics.failures)) failures "
        + "(\(range); \(seconds(elapsed)))")
    print("model-based step kinds: \(Self.figures(statistics.stepKinds))")
    print("model-based results: \(Self.figures(statistics.results))")
    print("model-based steps ending in each situation: \(Self.figures(statistics.situations))")
    #expect(statistics.sequences == seeds.count)
    #expect(statistics.failures == 0)
  }

  @Test func theShrinkerReducesAnInjectedMismatchToItsTwoEssentialSteps() async throws {
    // In this test only, the reference forgets to put pins back when it undoes a pin.
    let initial = sampleState()
    var found: (seed: UInt64, steps: [GeneratedStep], failure: RunFailure)?
    for seed in UInt64(1)...100 where found == nil {
      var generator = StepGenerator(seed: seed)
      let steps = generator.steps(120)
      var statistics = RunStatistics()
      if let failure = await ModelBasedRun.run(
        steps, initial: initial, fault: .undoKeepsPins, statistics: &statistics)
      {
        found = (seed, steps, failure)
      }
    }
    let (seed, steps, failure) = try #require(found)
    #expect(failure.area == "model")
    var shrinker = Shrinker(initial: initial, fault: .undoKeepsPins, area: failure.area)
    let shrunk = await shrinker.shrink(steps, failingAt: failure.stepIndex)
    print(
      "shrinker: seed \(seed) failed after step \(failure.stepIndex) of \(steps.count); "
        + "shrunk to \(shrunk.count) steps in \(shrinker.runs) runs: \(shrunk)")
    // Pinning (or unpinning) a note and undoing it is the smallest sequence that fails.
    #expect(shrunk.count == 2)
    #expect(shrunk.last == .undo)
    guard case .dispatch(.setPinned) = shrunk.first else {
      Issue.record("expected a pin first, got \(shrunk)")
      return
    }
    var statistics = RunStatistics()
    let stillFails = await ModelBasedRun.run(
      shrunk, initial: initial, fault: .undoKeepsPins, statistics: &statistics)
    #expect(stillFails?.area == "model")
    let correct = await ModelBasedRun.run(shrunk, initial: initial, statistics: &statistics)
    #expect(correct == nil)
  }

  /// Regression: the window title follows the insertion of the note or notebook it shows.
  ///
  /// WindowTitleController must recompute the title when a commit *inserts* the shown note
  /// or notebook, as it does when one *updates* it. Shown an id that does not exist yet
  /// (here the next id, which the following create or redo assigns), a title recomputed
  /// only on updates would stay "Notes" while a full recomputation names the new note or
  /// notebook.
  @Test(
    arguments: [
      [.showNotebook(.id(4)), .dispatch(.createNotebook("Travel", tick: 1))],
      [.showNote(.id(4)), .dispatch(.createNote(.at(0), "Fresh", body: "", tick: 1))],
      [
        .dispatch(.createNote(.at(0), "Fresh", body: "", tick: 1)), .undo, .showNote(.id(4)),
        .redo,
      ],
    ] as [[GeneratedStep]])
  func windowTitleFollowsTheInsertionOfTheNoteOrNotebookItShows(steps: [GeneratedStep]) async {
    await expectAgreement(steps)
  }

  /// Regression: the editor stops saying "deleted" once the note is back.
  ///
  /// EditorController sets `isDeleted` when the open note is deleted; unless it clears it
  /// when the note comes back (undo of the deletion), `save()` keeps refusing with "The
  /// note was deleted." although the note exists again.
  @Test(
    arguments: [
      [.openEditor(.at(0)), .dispatch(.deleteNote(.at(0))), .undo],
      [
        .openEditor(.at(0)), .typeBody("mine"), .dispatch(.deleteNote(.at(0))), .undo,
        .save(tick: 1),
      ],
    ] as [[GeneratedStep]])
  func theEditorNoLongerSaysDeletedOnceTheNoteIsBack(steps: [GeneratedStep]) async {
    await expectAgreement(steps)
  }

  /// Regression: undoing a typing run whose saves end where they began restores the date.
  ///
  /// A joined typing run keeps only its first save's inverse, `RestoreNoteFields(original)`.
  /// When the run's net change is only the modification date (the text was typed back), a
  /// restore that took the date-only difference for no edit would make "Undo Typing" return
  /// `.unchanged` and leave the run's date; a restore puts the date back too.
  @Test(
    arguments: [
      [
        .openEditor(.at(0)), .typeBody("A"), .saveTyping(tick: 0), .typeBody("Ship it"),
        .saveTyping(tick: 0), .undo,
      ],
      [
        .openEditor(.at(0)), .typeBody("Draft"), .saveTyping(tick: 1), .typeBody("Ship it"),
        .saveTyping(tick: 2), .undo, .redo,
      ],
    ] as [[GeneratedStep]])
  func undoingATypingRunRestoresTheModificationDate(steps: [GeneratedStep]) async {
    await expectAgreement(steps)
  }

  /// Regression: redoing a restore that recreated its notebook recreates the same notebook.
  ///
  /// A restore whose notebook is gone creates one with a new id; undo removes it. The redo
  /// ran the restore again, which gave the notebook yet another id (and used one more), so
  /// the redone state was not the one undone.
  @Test(
    arguments: [
      [
        .dispatch(.deleteNotebook(.at(0), deletingNotes: true)),
        .dispatch(.restoreNote(.at(0), tick: 0)), .undo, .redo,
      ],
      [
        .requestNotebookDeletion(.at(0)), .answerDeletion(0, confirmed: true),
        .dispatch(.restoreNote(.at(0), tick: 0)), .undo, .redo,
      ],
    ] as [[GeneratedStep]])
  func redoingARestoreRecreatesTheSameNotebook(steps: [GeneratedStep]) async {
    await expectAgreement(steps)
  }

  /// Regression: undoing the change that made a conflict ends the conflict and shows the
  /// note's title again.
  ///
  /// A restored version changed the title and the text under an unsaved draft, and the
  /// texts conflicted. Undoing it brought the note back to the draft's base, which the editor
  /// took for no change: it kept showing the restored title, and the conflict with a text no
  /// longer stored refused the next save (as after an edit elsewhere, undone).
  @Test(
    arguments: [
      [
        .openEditor(.at(0)), .typeBody("A"),
        .dispatch(.restoreVersion(.at(0), "A", body: .repeated("b", count: 5000), tick: 0)),
        .undo,
      ],
      [
        .openEditor(.at(0)), .typeBody("A"), .dispatch(.editBody(.at(0), "b", tick: 0)), .undo,
        .saveTyping(tick: 1),
      ],
    ] as [[GeneratedStep]])
  func undoingTheChangeThatMadeAConflictEndsIt(steps: [GeneratedStep]) async {
    await expectAgreement(steps)
  }

  /// Runs `steps` from `sampleState()`; the app must agree with the reference throughout.
  func expectAgreement(_ steps: [GeneratedStep]) async {
    var statistics = RunStatistics()
    let failure = await ModelBasedRun.run(
      steps, initial: sampleState(), statistics: &statistics)
    #expect(failure == nil, "\(failure.map(\.description) ?? "")")
  }

  @Test func stepsPrintAsTheSwiftThatWritesThem() {
    let steps: [GeneratedStep] = [
      .dispatch(.createNote(.at(2), "Tab\there", body: .repeated("b", count: 3), tick: 7)),
      .group([.setPinned(.id(-1), true), .deleteNote(.at(0))]),
      .search("\u{1B}[2J"),
      .trigger(.queue, .moveNote(.at(1), to: .id(999_999), tick: 0)),
    ]
    #expect(
      steps.map(\.description) == [
        ".dispatch(.createNote(.at(2), \"Tab\\there\", body: .repeated(\"b\", count: 3), tick: 7))",
        ".group([.setPinned(.id(-1), true), .deleteNote(.at(0))])",
        ".search(\"\\u{1B}[2J\")",
        ".trigger(.queue, .moveNote(.at(1), to: .id(999999), tick: 0))",
      ])
  }

  static func failureReport(
    seed: UInt64, steps: Int, failure: RunFailure, shrunk: [GeneratedStep],
    shrunkFailure: RunFailure?, shrinkRuns: Int
  ) -> String {
    let shrunkOutcome =
      shrunkFailure.map { "failing after step \($0.stepIndex): \($0.area): \($0.detail)" }
      ?? "no longer failing"
    return """
      model-based failure: seed \(seed), after step \(failure.stepIndex) of \(steps)
        \(failure.area): \(failure.detail)
      shrunk to \(shrunk.count) steps (\(shrinkRuns) runs), \
      \(shrunkOutcome)
      [
      \(shrunk.map { "  \($0)," }.joined(separator: "\n"))
      ]
      replay: AIRFRAME_MBT_SEED=\(seed) swift test --filter ModelBasedTests
      """
  }

  static func figures(_ counts: [String: Int]) -> String {
    counts.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
      .map { "\($0.key) \(grouped($0.value))" }.joined(separator: ", ")
  }
}

/// A duration in seconds with one decimal, as in "31.4 s".
func seconds(_ duration: Duration) -> String {
  let (whole, fraction) = duration.components
  return String(format: "%.1f s", Double(whole) + Double(fraction) / 1e18)
}

/// `value` with thousands separators, as in 40,000.
func grouped(_ value: Int) -> String {
  let digits = String(value.magnitude)
  var result = ""
  for (index, digit) in digits.enumerated() {
    if index > 0, (digits.count - index) % 3 == 0 { result += "," }
    result.append(digit)
  }
  return (value < 0 ? "-" : "") + result
}
