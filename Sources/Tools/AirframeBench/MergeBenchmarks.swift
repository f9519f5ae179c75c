// Notes merge (figure 18): the three-way merge of note bodies (`LineMerge`), which merges a
// region in conflict at the grain of lines again word by word.
//
// - The share of random same-paragraph edit pairs whose edits are apart (at least one word
//   neither side touched between them) that merge without a conflict copy, target ≥ 95%:
//   `ParagraphEdits` cases (the generator the property test uses, NotesFixtures),
//   10,000 of them (2,000 with --quick) from seed 18. Beside it, as many pairs edited
//   anywhere (they may touch or overlap), for the fall-back reasons.
// - Lost, duplicated and resurrected words over both runs: every merged text is audited
//   (`ParagraphEdits.audit`): each inserted and each kept unique word exactly once, no
//   removed one. Each must be 0.
// - The time of one merge of a 100,000-character note (1,000 lines of about 100
//   characters) where both sides edited different words of the same 1% of its lines, so
//   each of those lines is a region the word merge resolves: the median of
//   `scale.repetitions` runs (at least 5), after one warm-up.

import AirframeTesting
@_spi(Instrumentation) import NotesCore
import NotesFixtures

/// Figure 18: merges a person would make.
@MainActor
func notesMergeFigure(number: Int, quick: Bool, scale: Scale, sink: Sink) -> Figure {
  let pairs = quick ? 2_000 : 10_000
  var random = SeededRandomNumberGenerator(seed: 18)
  var apartMerged = 0
  var anywhereMerged = 0
  var audit = ParagraphEdits.Audit()
  var wrong = 0
  var fallbacks: [LineMerge.TokenFallback: Int] = [:]
  var apartFallbacks: [LineMerge.TokenFallback: Int] = [:]
  var pairNanoseconds = 0.0
  for index in 0..<(2 * pairs) {
    let apart = index < pairs
    let testCase = ParagraphEdits.make(using: &random, apart: apart)
    var explained: (outcome: LineMerge.Outcome, fallback: LineMerge.TokenFallback?)?
    pairNanoseconds += timeNanoseconds {
      explained = LineMerge.mergeExplained(
        ancestor: testCase.ancestor, ours: testCase.ours, theirs: testCase.theirs)
    }
    switch explained?.outcome {
    case .merged(let text)?:
      if apart { apartMerged += 1 } else { anywhereMerged += 1 }
      let found = ParagraphEdits.audit(testCase, merged: text)
      audit.lost += found.lost
      audit.duplicated += found.duplicated
      audit.resurrected += found.resurrected
      if let expected = testCase.expected, !expected.utf8.elementsEqual(text.utf8) { wrong += 1 }
      sink.total &+= text.utf8.count
    case .conflict?, nil:
      let reason = explained?.fallback ?? .overlapping
      if apart {
        apartFallbacks[reason, default: 0] += 1
      } else {
        fallbacks[reason, default: 0] += 1
      }
    }
    sink.count += 1
  }

  // The big note: 1,000 lines of words, both sides editing 10 of them, different words.
  var words = SeededRandomNumberGenerator(seed: 18)
  let vocabulary = (0..<2_000).map { "w\($0)" }
  var lines: [[String]] = []
  var characters = 0
  while characters < 100_000 {
    var line: [String] = []
    while line.joined(separator: " ").utf8.count < 95 {
      line.append(vocabulary.randomElement(using: &words)!)
    }
    characters += line.joined(separator: " ").utf8.count + 1
    lines.append(line)
  }
  var ours = lines
  var theirs = lines
  let edited = stride(from: 0, to: lines.count, by: 100).map { $0 + 37 }.filter { $0 < lines.count }
  for line in edited {
    ours[line][1] = "ours\(line)"
    theirs[line][lines[line].count - 2] = "theirs\(line)"
  }
  func text(_ lines: [[String]]) -> String {
    lines.map { $0.joined(separator: " ") }.joined(separator: "\n") + "\n"
  }
  let ancestorText = text(lines)
  let oursText = text(ours)
  let theirsText = text(theirs)
  var bigMerged = false
  var samples: [Double] = []
  for run in 0...max(5, scale.repetitions) {
    var outcome: LineMerge.Outcome?
    let nanoseconds = timeNanoseconds {
      outcome = LineMerge.merge(ancestor: ancestorText, ours: oursText, theirs: theirsText)
    }
    if case .merged(let merged)? = outcome {
      bigMerged = true
      sink.total &+= merged.utf8.count
    }
    sink.count += 1
    if run > 0 { samples.append(nanoseconds) }
  }
  let bigStats = Stats(samples: samples)
  let pairStats = Stats(samples: [pairNanoseconds / Double(2 * pairs)])

  let share = Double(apartMerged) / Double(pairs)
  var figure = Figure(
    number: number,
    title: "notes merge: edits of one paragraph on two devices, merged word by word (ms per merge)",
    kind: .scaledTime(unit: "ms/merge", nanosecondsPerUnit: 1e6))
  figure.rows.append(
    Row(
      benchmark: "notes-merge", subject: "100,000-char note, both sides in 1% of lines",
      operations: 1, repetitions: samples.count, time: bigStats,
      extras: [
        ("characters", .int(ancestorText.utf8.count)), ("lines", .int(lines.count)),
        ("edited_lines", .int(edited.count)), ("merged", .bool(bigMerged)),
      ],
      comment: "\(grouped(ancestorText.utf8.count)) bytes, \(edited.count) lines merged by word"))
  figure.rows.append(
    Row(
      benchmark: "notes-merge", subject: "one paragraph pair (mean of all pairs)",
      operations: 1, repetitions: 1, time: pairStats,
      extras: [
        ("pairs_apart", .int(pairs)), ("merged_apart", .int(apartMerged)),
        ("share_merged_apart", .double(share)), ("target_share", .double(0.95)),
        ("target_met", .bool(share >= 0.95)), ("pairs_anywhere", .int(pairs)),
        ("merged_anywhere", .int(anywhereMerged)), ("lost_words", .int(audit.lost)),
        ("duplicated_words", .int(audit.duplicated)),
        ("resurrected_words", .int(audit.resurrected)), ("wrong_results", .int(wrong)),
      ],
      comment: "\(grouped(2 * pairs)) pairs"))
  func list(_ counts: [LineMerge.TokenFallback: Int]) -> String {
    LineMerge.TokenFallback.allCases.map { "\($0.rawValue) \(counts[$0, default: 0])" }
      .joined(separator: ", ")
  }
  figure.notes.append(
    "target: ≥ 95% of \(grouped(pairs)) same-paragraph pairs with edits apart merge without a"
      + " conflict copy: " + (share >= 0.95 ? "met" : "MISSED")
      + " (\(formatted(share * 100, digits: 2))%, \(grouped(apartMerged)) merged; fall-backs: "
      + list(apartFallbacks) + ")")
  figure.notes.append(
    "pairs edited anywhere (may touch): \(grouped(anywhereMerged)) of \(grouped(pairs)) merged;"
      + " fall-backs: " + list(fallbacks))
  let clean = audit.isClean && wrong == 0
  figure.notes.append(
    "must be 0: lost \(audit.lost), duplicated \(audit.duplicated), resurrected"
      + " \(audit.resurrected) words, \(wrong) results other than both sides' edits: "
      + (clean ? "met" : "MISSED"))
  if !bigMerged { figure.notes.append("the 100,000-character note did NOT merge") }
  return figure
}
