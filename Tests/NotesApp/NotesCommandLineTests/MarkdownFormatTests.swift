// MarkdownFormatTests: the pieces of the Markdown export and import on their own: file
// names, front matter, exact dates, headings.

import Foundation
import Testing

@testable import NotesCommandLine
@testable import NotesFiles

@Suite struct MarkdownFormatTests {
  @Test(arguments: [
    ("a/b\\c:d*e?f\"g<h>i|j", "a_b_c_d_e_f_g_h_i_j"),
    ("tab\tnew\nline\u{7F}\u{85}", "tab_new_line__"),
    ("  . dotted . ", "dotted"),
    ("...", "Untitled"),
    ("", "Untitled"),
    ("CON", "CON_"),
    ("nul", "nul_"),
    ("Com7", "Com7_"),
    ("lpt0.txt", "lpt0_.txt"),
    ("aux ", "aux_"),
    ("COM10", "COM10"),
    ("CONSOLE", "CONSOLE"),
    ("Résumé 👩‍👩‍👧", "Résumé 👩‍👩‍👧"),
    ("-rf", "_rf"),
    ("--help", "__help"),
    (" - dash", "_ dash"),
    ("..-n", "_n"),
    ("a-b-", "a-b-"),
    ("-", "_"),
  ])
  func unsafeNamesAreMadeSafe(title: String, stem: String) {
    #expect(FileNames.safeStem(title) == stem)
  }

  @Test func everyUnsafeScalarIsReplaced() {
    let unsafe =
      "/\\:*?\"<>|" + String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
    let stem = FileNames.safeStem("x" + unsafe + "x")
    #expect(stem == "x" + String(repeating: "_", count: unsafe.unicodeScalars.count) + "x")
  }

  @Test func namesAreUniqueIgnoringCaseAndNormalization() {
    var names = FileNames()
    #expect(names.name(for: "Plan", fileExtension: "md") == "Plan.md")
    #expect(names.name(for: "plan", fileExtension: "md") == "plan 2.md")
    #expect(names.name(for: "PLAN", fileExtension: "md") == "PLAN 3.md")
    #expect(names.name(for: "Plan 2", fileExtension: "md") == "Plan 2 2.md")
    #expect(names.name(for: "a:b", fileExtension: "md") == "a_b.md")
    #expect(names.name(for: "a?b", fileExtension: "md") == "a_b 2.md")
    // "é" composed and decomposed are the same name on APFS and NTFS lookups.
    #expect(names.name(for: "caf\u{E9}", fileExtension: "md") == "caf\u{E9}.md")
    #expect(names.name(for: "CAFE\u{301}", fileExtension: "md") == "CAFE\u{301} 2.md")
    var folders = FileNames()
    #expect(folders.name(for: "Work", fileExtension: "") == "Work")
    #expect(folders.name(for: "work", fileExtension: "") == "work 2")
  }

  @Test func lengthIsBoundedInBytesWithoutSplittingACharacter() {
    // 2-byte, 3-byte, 4-byte characters and a 25-byte family emoji.
    for piece in ["é", "日", "𝄞", "👩‍👩‍👧"] {
      let stem = FileNames.safeStem(String(repeating: piece, count: 300))
      #expect(stem.utf8.count <= FileNames.stemLimit)
      #expect(stem.utf8.count > FileNames.stemLimit - piece.utf8.count)
      #expect(stem == String(repeating: piece, count: stem.count))
    }
    // A cut that ends on a space or a dot is trimmed again.
    let stem = FileNames.safeStem(String(repeating: "a", count: 199) + " bcd")
    #expect(stem == String(repeating: "a", count: 199))
    var names = FileNames()
    let long = String(repeating: "日", count: 100)
    _ = names.name(for: long, fileExtension: "md")
    #expect(names.name(for: long, fileExtension: "md").utf8.count <= 255)
  }

  @Test(arguments: [
    Date(timeIntervalSinceReferenceDate: 0),
    Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_789),
    Date(timeIntervalSinceReferenceDate: 736_000_000.000_1),
    Date(timeIntervalSinceReferenceDate: 736_000_000.999_999_9),
    Date(timeIntervalSince1970: 0),
    Date(timeIntervalSince1970: -300_000_000.25),
    Date(timeIntervalSince1970: 32_503_680_000.5),
    Date(),
  ])
  func datesReadBackExactly(date: Date) throws {
    let text = ExactDates.format(date)
    #expect(try #require(ExactDates.parse(text)) == date, "\(text)")
  }

  @Test func datesAreWrittenInUTCToAtLeastTheMillisecond() {
    #expect(
      ExactDates.format(Date(timeIntervalSince1970: 1_714_555_800.25))
        == "2024-05-01T09:30:00.250Z")
    #expect(ExactDates.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
  }

  @Test func handWrittenDatesAreRead() {
    let may = Date(timeIntervalSince1970: 1_714_521_600)  // 2024-05-01T00:00:00Z
    #expect(ExactDates.parse("2024-05-01") == may)
    #expect(ExactDates.parse("2024-05-01 09:30") == may + 34_200)
    #expect(ExactDates.parse("2024-05-01T09:30:00Z") == may + 34_200)
    #expect(ExactDates.parse("2024-05-01T11:30:00+02:00") == may + 34_200)
    #expect(ExactDates.parse("2024-05-01T04:00:00-0530") == may + 34_200)
    #expect(ExactDates.parse("2024-02-29") != nil)
    for bad in ["yesterday", "2024-13-01", "2023-02-29", "2024-05-01T25:00", "2024-05-01x", ""] {
      #expect(ExactDates.parse(bad) == nil, "\(bad)")
    }
  }

  @Test(arguments: [
    "plain", "with: colon", "\"quoted\"", "# hash", "  leading and trailing  ", "back\\slash",
    "'single'", "- dash", "---", "[bracket", "{brace}", "| pipe", "> fold", "&anchor", "*star",
    "!tag", "%percent", "@at", "`tick", "~", "null", "true", "12", "tab\there", "日本語 👩‍👩‍👧",
    "line\nbreak\r\n", "bell\u{07}esc\u{1B}del\u{7F}", "\u{2028}\u{2029}\u{FEFF}\u{85}", "",
  ])
  func titlesSurviveTheFrontMatter(title: String) throws {
    let matter = FrontMatter(
      title: title, created: Date(timeIntervalSinceReferenceDate: 1.5),
      modified: Date(timeIntervalSinceReferenceDate: 2.000_001), pinned: true)
    let (read, body) = try FrontMatter.split(matter.text + "body")
    // An empty title reads as none (YAML's empty value); every other one exactly.
    #expect(read?.title == (title.isEmpty ? nil : title))
    #expect(read?.created == matter.created && read?.modified == matter.modified)
    #expect(read?.pinned == true)
    #expect(body == "body")
  }

  @Test(arguments: [
    "", "\n", "---\n", "---\ntitle: fake\n---\n", "a\r\nb\r\n", "\r\n", "\t\n\t", "no newline",
    "\u{FEFF}bom", "trailing\n\n\n",
  ])
  func bodiesFollowTheFrontMatterByteForByte(body: String) throws {
    let text = FrontMatter(title: "T", pinned: false).text + body
    let (matter, read) = try FrontMatter.split(text)
    #expect(matter?.title == "T")
    #expect(Array(read.utf8) == Array(body.utf8))
  }

  @Test func handWrittenFrontMatterIsRead() throws {
    let text = """
      ---\r
      # a comment
      title: Shopping list   # trailing comment
      tags:
        - home
        - errands
      aliases: [list]
      created: '2024-05-01'
      pinned: yes

      ...
      # Body heading
      """
    let (matter, body) = try FrontMatter.split(text)
    #expect(matter?.title == "Shopping list")
    #expect(matter?.created == Date(timeIntervalSince1970: 1_714_521_600))
    #expect(matter?.modified == nil)
    #expect(matter?.pinned == true)
    #expect(body == "# Body heading")
    #expect(try FrontMatter.split("---\ntitle: 'it''s'\n---\n").0?.title == "it's")
    #expect(try FrontMatter.split("no front matter\n---\n").0 == nil)
    #expect(try FrontMatter.split("--- not a fence\n").0 == nil)
  }

  @Test(arguments: [
    ("---\ntitle: x\n", "opened on line 1 has no closing --- line"),
    ("---\njust words\n---\n", "line 2 is not \"key: value\""),
    ("---\ntitle: \"open\n---\n", "line 2: title: no closing \" quote"),
    ("---\ntitle: 'open\n---\n", "line 2: title: no closing ' quote"),
    ("---\ntitle: \"a\" b\n---\n", "line 2: title: \"b\" after the closing quote"),
    ("---\ntitle: \"\\q\"\n---\n", "line 2: title: \\q is not an escape YAML knows"),
    ("---\ntitle: [a, b]\n---\n", "line 2: title: \"[a, b]\" is not a plain value (quote it)"),
    ("---\ntitle: a\ntitle: b\n---\n", "line 3: title is given twice"),
    ("---\ntitle: |\n  block\n---\n", "line 2: title: \"|\" is not a plain value (quote it)"),
    ("---\ntitle:\n  - a\n---\n", "line 3: the value of title must be on one line"),
    ("---\n  indented: x\n---\n", "line 2: a value must be on one line"),
    ("---\ncreated: yesterday\n---\n", "line 2: created: \"yesterday\" is not a date"),
    ("---\npinned: maybe\n---\n", "line 2: pinned must be true or false, not \"maybe\""),
  ])
  func badFrontMatterIsAProblemNamingTheLine(text: String, message: String) {
    let error = #expect(throws: FrontMatter.Problem.self) { try FrontMatter.split(text) }
    #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error))")
  }

  @Test func headingsGiveTitles() {
    #expect(MarkdownImport.heading(of: "# Title\nbody") == "Title")
    #expect(MarkdownImport.heading(of: "#   Spaced   \r\nbody") == "Spaced")
    #expect(MarkdownImport.heading(of: "# Closed ##") == "Closed")
    #expect(MarkdownImport.heading(of: "# C# tips") == "C# tips")
    #expect(MarkdownImport.heading(of: "## Second level") == nil)
    #expect(MarkdownImport.heading(of: "#hashtag") == nil)
    #expect(MarkdownImport.heading(of: "text\n# Later") == nil)
    #expect(MarkdownImport.heading(of: "# ") == nil)
  }
}
