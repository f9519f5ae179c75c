import Airframe
import Testing

/// User text isolated for display: balanced whatever it holds, and only in the display
/// form of a validation message.
@Suite struct BidiIsolationTests {
  static let first = "\u{2068}"
  static let pop = "\u{2069}"

  @Test(arguments: [
    ("Work", "\u{2068}Work\u{2069}"),
    ("", "\u{2068}\u{2069}"),
    ("دفتري 2", "\u{2068}دفتري 2\u{2069}"),
    // Its own isolates, closed: kept.
    ("a\u{2067}b\u{2069}c", "\u{2068}a\u{2067}b\u{2069}c\u{2069}"),
    // A pop that closes nothing of its own would end the isolation early: left out.
    ("a\u{2069}b", "\u{2068}ab\u{2069}"),
    // An isolate it opens and does not close is closed before the end.
    ("a\u{2066}b", "\u{2068}a\u{2066}b\u{2069}\u{2069}"),
    // An override inside is ended by the isolation's own pop; kept as it is.
    ("\u{202E}abc", "\u{2068}\u{202E}abc\u{2069}"),
  ])
  func userTextIsIsolatedAndBalanced(_ text: String, _ isolated: String) {
    #expect(BidiIsolation.isolate(text) == isolated)
    #expect(BidiIsolation.isolate(text[...]) == isolated)
  }

  @Test func aValidationMessageIsolatesWhatItQuotesForDisplayOnly() throws {
    let rule = UniqueWithin(field: "notebook title", existing: ["Work", "سفر"]) { $0.lowercased() }
    let issue = try #require(rule.issues(in: "سفر").first)
    #expect(issue.message == "A notebook title \"سفر\" already exists.")
    #expect(
      issue.displayMessage == "A notebook title \"\(Self.first)سفر\(Self.pop)\" already exists.")
    let outcome = ActionOutcome.invalid(ValidationResult([issue]))
    #expect(outcome.description == issue.message)
    #expect(outcome.displayDescription == issue.displayMessage)
    // A message that quotes nothing is the same in both forms.
    let plain = ValidationIssue(field: "title", message: "The title must not be empty.")
    #expect(plain.displayMessage == plain.message)
    #expect(ActionOutcome.rejected("Busy.").displayDescription == "Busy.")
  }
}
