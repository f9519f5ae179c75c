import Airframe
import AirframeTesting
import Testing

@Suite(.noLiveBindings)
struct ValidatorTests {
  @Test(arguments: ["", " ", "\t\n", "\u{00A0}\u{3000}"])
  func nonEmptyTextRejectsBlankText(_ text: String) {
    #expect(
      NonEmptyText(field: "title").issues(in: text) == [
        ValidationIssue(field: "title", message: "The title must not be empty.")
      ])
  }

  @Test(arguments: ["a", " Groceries ", "🍎"])
  func nonEmptyTextAcceptsText(_ text: String) {
    #expect(NonEmptyText(field: "title").issues(in: text).isEmpty)
  }

  @Test func maximumLengthCountsCharactersAsAPersonDoes() {
    let rule = MaximumLength(field: "title", limit: 3)
    #expect(rule.issues(in: "abc").isEmpty)
    #expect(rule.issues(in: "🇩🇪🇫🇷🇯🇵").isEmpty)  // three flags, twelve scalars
    #expect(rule.issues(in: "abcd").map(\.message) == ["The title must be at most 3 characters."])
  }

  @Test func maximumLengthRejectsAOneMebibyteString() {
    let huge = String(repeating: "x", count: 1 << 20)
    #expect(MaximumLength(field: "body", limit: 100_000).issues(in: huge).count == 1)
  }

  @Test(arguments: ["a\u{1B}[2J", "tab\there", "line\nbreak", "nul\u{0}", "del\u{7F}"])
  func noControlCharactersRejectsControlAndEscapeCharacters(_ text: String) {
    #expect(NoControlCharacters(field: "title").issues(in: text).count == 1)
  }

  @Test func theControlCharacterScanMatchesUnicodeCategoryCc() {
    // Every scalar of the first planes' start, alone and between other text.
    for value in UInt32(0)..<0x3000 {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let isControl = scalar.properties.generalCategory == .control
      let text = "é" + String(Character(scalar)) + "x"
      #expect(NoControlCharacters.containsControlCharacter(in: text) == isControl, "U+\(value)")
    }
    #expect(!NoControlCharacters.containsControlCharacter(in: "a\nb\tc", allowing: ["\n", "\t"]))
    #expect(NoControlCharacters.containsControlCharacter(in: "a\nb\u{85}", allowing: ["\n"]))
    // Allowed controls of every kind: C0 (a bit each), DEL and C1 (by the set).
    let allowed: Set<Unicode.Scalar> = ["\u{0}", "\u{1F}", "\u{7F}", "\u{85}"]
    #expect(
      !NoControlCharacters.containsControlCharacter(
        in: "\u{0}a\u{1F}\u{7F}é\u{85}", allowing: allowed))
    #expect(NoControlCharacters.containsControlCharacter(in: "\u{0}\u{1E}", allowing: allowed))
    #expect(NoControlCharacters.containsControlCharacter(in: "\u{7F}\u{86}", allowing: allowed))
    // A long text whose only control is at its end.
    let long = String(repeating: "line of text, ünïcödé\n", count: 5_000)
    #expect(!NoControlCharacters.containsControlCharacter(in: long, allowing: ["\n"]))
    #expect(NoControlCharacters.containsControlCharacter(in: long + "\u{9F}", allowing: ["\n"]))
  }

  @Test func noControlCharactersAcceptsOrdinaryAndSQLSpecialText() {
    #expect(NoControlCharacters(field: "title").issues(in: "It's 100% done; -- \"quoted\"").isEmpty)
  }

  @Test func uniqueWithinUsesTheKey() {
    let rule = UniqueWithin(field: "notebook title", existing: ["Work", "Home"]) {
      $0.lowercased()
    }
    #expect(rule.issues(in: "Travel").isEmpty)
    #expect(rule.issues(in: "WORK").map(\.message) == ["A notebook title \"Work\" already exists."])
  }

  @Test func existingIDRejectsUnknownIds() {
    let rule = ExistingID(field: "notebook", ids: [1, 2])
    #expect(rule.issues(in: 2).isEmpty)
    #expect(rule.issues(in: 7).map(\.message) == ["There is no notebook with id 7."])
  }

  @Test func aListOfValidatorsCollectsEveryFailureInOrder() {
    let validators = ValidatorList<String> {
      NonEmptyText(field: "title")
      MaximumLength(field: "title", limit: 2)
      NoControlCharacters(field: "title")
    }
    let result = validators.validate("a\u{1B}c")
    #expect(!result.isValid)
    #expect(
      result.issues.map(\.message) == [
        "The title must be at most 2 characters.",
        "The title must not contain control characters.",
      ])
    #expect(result.summary == "The title must be at most 2 characters.")
    #expect(validators.validate("ok").isValid)
  }

  @Test func aListChoosesRulesWithIfElseAndForAndNests() {
    func rules(strict: Bool, limits: [Int]) -> ValidatorList<String> {
      ValidatorList {
        if strict { NonEmptyText(field: "strict") }
        if limits.isEmpty {
          NoControlCharacters(field: "plain")
        } else {
          NoInvisibleCharacters(field: "fancy")
        }
        for limit in limits { MaximumLength(field: "limit \(limit)", limit: limit) }
        ValidatorList { NonEmptyText(field: "nested") }
      }
    }
    #expect(rules(strict: true, limits: []).issues(in: "").map(\.field) == ["strict", "nested"])
    #expect(rules(strict: false, limits: []).issues(in: "\u{7}").map(\.field) == ["plain"])
    #expect(
      rules(strict: false, limits: [1, 2]).issues(in: "abc").map(\.field) == ["limit 1", "limit 2"])
  }

  @Test func aRuleAppliedToAPartJudgesThatPart() {
    let withoutSpaces = MaximumLength(field: "title", limit: 2).applied(to: { (text: String) in
      String(text.filter { $0 != " " })
    })
    #expect(withoutSpaces.issues(in: " a b ").isEmpty)
    #expect(!MaximumLength(field: "title", limit: 2).issues(in: " a b ").isEmpty)
    #expect(withoutSpaces.issues(in: "abc").map(\.field) == ["title"])
  }

  @Test func noInvisibleCharactersGivesEachClassItsOwnReason() {
    let rule = NoInvisibleCharacters(field: "title")
    #expect(
      rule.issues(in: "\u{202E}txt.exe").map(\.message) == [
        "The title must not contain bidirectional controls (U+202E)."
      ])
    #expect(
      rule.issues(in: "a\u{200B}b").map(\.message) == [
        "The title must not contain invisible characters (U+200B)."
      ])
    #expect(
      rule.issues(in: "\u{FFFF}").map(\.message) == [
        "The title must not contain noncharacters (U+FFFF)."
      ])
    #expect(rule.issues(in: "\u{FEFF}\u{2067}x\u{10FFFE}").count == 3)
  }

  @Test(arguments: ["plain", "👩‍👩‍👧", "🇺🇸", "e\u{301}", "❤️", "می\u{200C}خواهم", "שלום", "\u{FFFD}"])
  func noInvisibleCharactersAcceptsVisibleTextAndJoiners(_ text: String) {
    #expect(NoInvisibleCharacters(field: "title").issues(in: text).isEmpty)
  }
}
