import Airframe
import AirframeTesting
import Foundation
import NotesCommandLine
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

/// `notes history`, run as the built `notes` program on the sample library (note 6 is
/// "Groceries", note 7 "Weekend"): the list, one version, a restore, and the exit statuses.
@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct HistoryCommandTests {
  private func notes(
    _ arguments: [String], input: Data = Data(), in library: TestLibrary
  ) throws -> CommandResult {
    let program = try #require(Programs.built("notes"), "the notes program is not built")
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return try Programs.run(
      program, arguments + ["--database", library.path], input: input,
      environment: ["HOME=\(library.folder)", "PATH=\(path)"], folder: library.folder)
  }

  private let groceries = NoteID(rawValue: 6)

  /// The version numbers of a plain `history` listing, newest first, with their origins.
  private func listed(_ output: String) -> [(number: Int64, origin: String, title: String)] {
    output.split(separator: "\n").map { line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      return (Int64(fields[0]) ?? -1, String(fields[2]), String(fields[3]))
    }
  }

  @Test func historyListsShowsAndRestoresVersions() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let original = try #require(try library.state().notes[groceries])

    let untouched = try notes(["history", "6"], in: library)
    #expect(untouched.status == 0 && untouched.output.isEmpty)
    #expect(untouched.errors.contains("no version kept"))

    #expect(
      try notes(["edit", "6", "--body", "-"], input: Data("eggs\n".utf8), in: library).status
        == 0)
    let history = try notes(["history", "6"], in: library)
    #expect(history.status == 0 && history.errors.isEmpty)
    let versions = listed(history.output)
    #expect(versions.map(\.origin) == ["this device", "before history was kept"])
    #expect(versions.map(\.title) == ["Groceries", "Groceries"])
    let first = versions[1].number

    let shown = try notes(["history", "6", "--show", "\(first)"], in: library)
    #expect(shown.status == 0)
    #expect(shown.output.hasPrefix("Version: \(first)\nNote: 6\nTitle: Groceries\n"))
    #expect(
      shown.output.hasSuffix("\n\n" + original.body + (original.body.hasSuffix("\n") ? "" : "\n")))

    #expect(
      try notes(["history", "6", "--restore", "\(first)"], in: library)
        == CommandResult(
          status: 0, output: "restored version \(first) of 6 \"Groceries\"\n", errors: ""))
    #expect(try library.state().notes[groceries]?.body == original.body)
    let after = try notes(["history", "6", "--json"], in: library)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(after.output.utf8)) as? [[String: Any]])
    #expect(
      json.map { $0["origin"] as? String } == [
        "restored-version", "this-device", "before-history",
      ])
    #expect(json.first?["body"] as? String == original.body)
    #expect(json.allSatisfy { $0["note"] as? Int == 6 && $0["saved"] is String })

    // A note in Recently Deleted keeps its history.
    #expect(try notes(["delete", "6"], in: library).status == 0)
    #expect(listed(try notes(["history", "6"], in: library).output).count == 3)
  }

  @Test func aMissingNoteOrVersionExits66AndBadArgumentsExit64ChangingNothing() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    #expect(
      try notes(["edit", "6", "--body", "-"], input: Data("eggs\n".utf8), in: library).status
        == 0)
    let version = try #require(listed(try notes(["history", "6"], in: library).output).first)
    let before = try library.state()

    #expect(
      try notes(["history", "99"], in: library)
        == CommandResult(status: 66, output: "", errors: "notes: no note with id 99\n"))
    #expect(
      try notes(["history", "7", "--show", "\(version.number)"], in: library)
        == CommandResult(
          status: 66, output: "", errors: "notes: note 7 has no version \(version.number)\n"))
    #expect(
      try notes(["history", "7", "--restore", "\(version.number)"], in: library).status == 66)
    #expect(try notes(["history", "6", "--show", "x"], in: library).status == 64)
    #expect(try notes(["history", "6", "--show", "1", "--restore", "1"], in: library).status == 64)
    #expect(try notes(["history", "6", "--restore", "1", "--json"], in: library).status == 64)
    #expect(try notes(["history"], in: library).status == 64)
    #expect(try library.state() == before)
  }
}
