import Airframe
import AirframeTesting
import Foundation
import NotesCommandLine
@_spi(Instrumentation) import NotesCore
import NotesTestSupport
import Testing

/// The built `notes` program, run as a process: real exit codes and standard error.
@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct ProgramTests {
  private func notes(
    _ arguments: [String], input: Data = Data(), in library: TestLibrary
  ) throws -> CommandResult {
    let program = try #require(Programs.built("notes"), "the notes program is not built")
    return try Programs.run(
      program, arguments, input: input, environment: ["HOME=\(library.folder)"],
      folder: library.folder)
  }

  @Test func invalidUTF8PipedToAddExits65AndSavesNothing() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let before = try library.state()
    let result = try notes(
      ["add", "--notebook", "Home", "--title", "Bytes", "--database", library.path],
      input: Data([0x6E, 0x6F, 0x74, 0x65, 0xFF, 0xFE, 0x80]), in: library)
    #expect(
      result == .standardInputNotUTF8)
    #expect(try library.state() == before)
  }

  @Test func pipedBodyIsAddedAndShown() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    let database = ["--database", library.path]
    let added = try notes(
      database + ["add", "--notebook", "Inbox", "--create-notebook", "--title", "From a pipe"],
      input: Data("piped body\n".utf8), in: library)
    #expect(added == CommandResult(status: 0, output: "2\n", errors: ""))
    let shown = try notes(["show", "2"] + database, in: library)
    #expect(shown.status == 0)
    #expect(shown.output.hasPrefix("ID: 2\nTitle: From a pipe\nNotebook: Inbox\n"))
    #expect(shown.output.hasSuffix("\n\npiped body\n"))
    #expect(try notes(["show", "3"] + database, in: library).status == 66)
  }

  @Test func listSearchExportAndImportRunAsTheBuiltProgram() throws {
    let library = try TestLibrary()
    defer { library.remove() }
    let database = ["--database", library.path]
    // Newest first: the samples were made a minute apart, Weekend after Groceries.
    let list = try notes(["list", "--notebook", "home"] + database, in: library)
    #expect(
      list == CommandResult(status: 0, output: "7\tHome\tWeekend\n6\tHome\tGroceries\n", errors: "")
    )
    let search = try notes(["search", "coffee"] + database, in: library)
    #expect(search.status == 0)
    #expect(search.output.hasPrefix("6\tHome\tGroceries"))
    #expect(try notes(["search", "nothinglikethis"] + database, in: library).output == "")
    let export = try notes(["export", "--json"] + database, in: library)
    #expect(export.status == 0)
    // The export, imported into an empty library through standard input, holds the same
    // notebooks and notes.
    let copy = try TestLibrary(samples: false)
    defer { copy.remove() }
    let imported = try notes(
      ["import", "-", "--database", copy.path], input: Data(export.output.utf8), in: copy)
    #expect(
      imported
        == CommandResult(
          status: 0,
          output: "imported 6 notes: 3 new notebooks, 0 merged into notebooks of the same title\n",
          errors: ""))
    let titles = try copy.state().notes.elements.map(\.title).sorted()
    #expect(titles == (try library.state().notes.elements.map(\.title).sorted()))
  }

  @Test func usageErrorsExit64OnStandardError() throws {
    let library = try TestLibrary(samples: false)
    defer { library.remove() }
    let result = try notes(["list", "--bogus", "--database", library.path], in: library)
    #expect(result.status == 64)
    #expect(result.output == "")
    #expect(result.errors.hasPrefix("notes: unknown option '--bogus'\n"))
    let help = try notes(["--help"], in: library)
    #expect(help == CommandResult(status: 0, output: NotesCommandLine.usage, errors: ""))
    #expect(!library.exists)
  }
}
