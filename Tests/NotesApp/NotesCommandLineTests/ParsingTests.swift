import AirframeTesting
import NotesCommandLine
@_spi(Instrumentation) import NotesCore
import Testing

@Suite(.noLiveBindings)
struct ParsingTests {
  private func parse(_ arguments: String...) throws(UsageError) -> NotesCommand {
    try NotesCommandLine.parse(arguments)
  }

  /// The message of the usage error `arguments` throw, or `nil` if they parse.
  private func problem(_ arguments: String...) -> String? {
    do {
      _ = try NotesCommandLine.parse(arguments)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func noSubcommandOpensTheFullScreenApp() throws {
    #expect(try parse() == .interactive(databasePath: nil))
    #expect(try parse("--database", "/tmp/a.sqlite") == .interactive(databasePath: "/tmp/a.sqlite"))
    #expect(try parse("--database=/tmp/a.sqlite") == .interactive(databasePath: "/tmp/a.sqlite"))
    #expect(problem("--json") == "option '--json' does not apply to the full-screen app")
  }

  @Test func helpAndVersion() throws {
    #expect(try parse("--help") == .help)
    #expect(try parse("-h") == .help)
    #expect(try parse("help") == .help)
    #expect(try parse("list", "--help") == .help)
    #expect(try parse("--bogus", "--help") == .help)
    #expect(try parse("--version") == .version)
  }

  @Test func list() throws {
    #expect(try parse("list") == .library(.list(notebook: nil, json: false), databasePath: nil))
    #expect(try parse("trash", "--json") == .library(.trash(json: true), databasePath: nil))
    let expected = NotesCommand.library(.list(notebook: "Work", json: true), databasePath: "db")
    #expect(try parse("list", "--notebook", "Work", "--json", "--database", "db") == expected)
    #expect(try parse("--json", "--database", "db", "list", "--notebook", "Work") == expected)
    #expect(try parse("--database=db", "list", "--json", "--notebook=Work") == expected)
  }

  @Test func add() throws {
    #expect(
      try parse("add", "--title", "T", "--notebook", "N")
        == .library(
          .add(notebook: "N", title: "T", body: nil, createNotebook: false), databasePath: nil))
    #expect(
      try parse(
        "--create-notebook", "add", "--body", "-5 degrees", "--notebook", "N", "--title", "")
        == .library(
          .add(notebook: "N", title: "", body: "-5 degrees", createNotebook: true),
          databasePath: nil))
    #expect(problem("add", "--title", "T") == "'add' needs --notebook NAME")
    #expect(problem("add", "--notebook", "N") == "'add' needs --title TITLE")
    #expect(problem("add", "--notebook", "N", "--title") == "option '--title' needs a value")
    #expect(
      problem("add", "--notebook", "N", "--title", "T", "--json")
        == "option '--json' does not apply to 'add'")
    #expect(
      problem("add", "--notebook", "N", "--title", "T", "extra")
        == "unexpected argument 'extra' for 'add'")
  }

  @Test func showNeedsOneNumericID() throws {
    #expect(
      try parse("show", "12")
        == .library(.show(NoteID(rawValue: 12), json: false), databasePath: nil))
    #expect(
      try parse("show", "--json", "12")
        == .library(.show(NoteID(rawValue: 12), json: true), databasePath: nil))
    #expect(problem("show") == "'show' needs ID")
    #expect(problem("show", "1", "2") == "unexpected argument '2' for 'show'")
    for word in ["abc", "1.5", "١٢", "99999999999999999999", "+3", ""] {
      #expect(problem("show", word) == "a note ID is a whole number such as 12, not '\(word)'")
    }
    #expect(problem("show", "-3") == "unknown option '-3'")
  }

  @Test func noteAndNotebookGestures() throws {
    func gesture(_ arguments: String...) throws -> GestureCommand? {
      guard case .library(.gesture(let gesture), _) = try NotesCommandLine.parse(arguments) else {
        return nil
      }
      return gesture
    }
    let six = NoteID(rawValue: 6)
    #expect(try gesture("rename", "6", "--", "-New-") == .rename(six, to: "-New-"))
    #expect(try gesture("move", "6", "Work") == .move(six, to: "Work"))
    #expect(try gesture("pin", "6") == .pin(six, true))
    #expect(try gesture("unpin", "6") == .pin(six, false))
    #expect(try gesture("delete", "6") == .delete(six))
    #expect(try gesture("restore", "6") == .restore(six))
    #expect(try gesture("trash", "empty") == .emptyTrash(confirmed: false))
    #expect(try gesture("trash", "empty", "--yes") == .emptyTrash(confirmed: true))
    #expect(try gesture("trash", "keep") == .keepDeletedNotes(days: nil))
    #expect(try gesture("trash", "keep", "7") == .keepDeletedNotes(days: 7))
    #expect(problem("trash", "keep", "a week") == "DAYS is a whole number such as 30, not 'a week'")
    #expect(problem("trash", "keep", "7", "8") == "unexpected argument '8' for 'trash keep'")
    #expect(problem("trash", "keep", "--yes") == "option '--yes' does not apply to 'trash keep'")
    #expect(problem("trash", "later") == "'trash' takes empty or keep, not 'later'")
    #expect(try gesture("edit", "6") == .edit(six, fromStandardInput: false))
    #expect(try gesture("edit", "6", "--body", "-") == .edit(six, fromStandardInput: true))
    #expect(try gesture("notebook", "add", "Trips") == .addNotebook("Trips"))
    #expect(try gesture("notebook", "rename", "A", "B") == .renameNotebook("A", to: "B"))
    #expect(try gesture("notebook", "delete", "A") == .deleteNotebook("A", confirmed: false))
    #expect(
      try gesture("notebook", "delete", "--yes", "A") == .deleteNotebook("A", confirmed: true))
    #expect(problem("rename", "6") == "'rename' needs TITLE")
    #expect(problem("move", "x", "Work") == "a note ID is a whole number such as 12, not 'x'")
    #expect(problem("pin", "6", "--yes") == "option '--yes' does not apply to 'pin'")
    #expect(problem("edit", "6", "--body", "text") == "'edit' takes --body - (standard input) only")
    #expect(problem("notebook") == "'notebook' needs add, rename or delete")
    #expect(
      problem("notebook", "drop", "A") == "unknown notebook command 'drop' (add, rename or delete)")
    #expect(problem("notebook", "add") == "'notebook add' needs NAME")
    #expect(problem("notebook", "add", "A", "B") == "unexpected argument 'B' for 'notebook add'")
    #expect(
      problem("notebook", "add", "A", "--yes") == "option '--yes' does not apply to 'notebook add'")
  }

  @Test func serverCommandsTakeTheirOperands() throws {
    let url = "postgresql://notes@db.example/notes"
    func server(_ words: String...) throws -> ServerCommand? {
      if case .library(.server(let command), _) = try NotesCommandLine.parse(words) {
        return command
      }
      return nil
    }
    #expect(try server("server", "init", url) == .initialize(url: url, legacyAccount: nil))
    #expect(
      try server("server", "init", url, "--account", "anna")
        == .initialize(url: url, legacyAccount: "anna"))
    #expect(try server("server", "add-account", "bob", url) == .addAccount(name: "bob", url: url))
    #expect(
      try server("server", "remove-account", "bob", url)
        == .removeAccount(name: "bob", url: url, confirmed: false))
    #expect(
      try server("server", "remove-account", "--yes", "bob", url)
        == .removeAccount(name: "bob", url: url, confirmed: true))
    #expect(try server("server", "list-accounts", url) == .listAccounts(url: url))
    let expected =
      "'server' takes init URL, add-account NAME URL, remove-account NAME URL or list-accounts URL"
    #expect(problem("server") == expected)
    #expect(problem("server", "drop", url) == expected + ", not 'drop'")
    #expect(problem("server", "init") == "'server init' needs URL")
    #expect(problem("server", "init", url, "x") == "unexpected argument 'x' for 'server init'")
    #expect(problem("server", "add-account", "bob") == "'server add-account' needs URL")
    #expect(
      problem("server", "list-accounts", url, "--account", "x")
        == "option '--account' does not apply to 'server list-accounts'")
    #expect(
      problem("server", "add-account", "bob", url, "--yes")
        == "option '--yes' does not apply to 'server add-account'")
  }

  @Test func searchTakesOneQueryVerbatim() throws {
    let query = "'; DROP TABLE notes; --"
    #expect(
      try parse("search", query) == .library(.search(query: query, json: false), databasePath: nil))
    #expect(
      try parse("search", "--", "-draft")
        == .library(.search(query: "-draft", json: false), databasePath: nil))
    #expect(problem("search") == "'search' needs QUERY")
    #expect(
      problem("search", "two", "words")
        == "unexpected argument 'words' for 'search' (quote a query of several words)")
  }

  @Test func exportAndImport() throws {
    #expect(try parse("export") == .library(.export, databasePath: nil))
    #expect(try parse("export", "--json") == .library(.export, databasePath: nil))
    #expect(try parse("import", "-") == .library(.importLibrary(path: "-"), databasePath: nil))
    #expect(
      try parse("import", "a.json", "--database", "db")
        == .library(.importLibrary(path: "a.json"), databasePath: "db"))
    #expect(problem("import") == "'import' needs FILE or DIR")
    #expect(
      try parse("export", "--markdown", "out")
        == .library(.exportMarkdown(folder: "out"), databasePath: nil))
    #expect(
      try parse("--markdown=-x", "export", "--database", "db")
        == .library(.exportMarkdown(folder: "-x"), databasePath: "db"))
    #expect(problem("export", "--markdown") == "option '--markdown' needs a value")
    #expect(problem("export", "--markdown", "") == "option '--markdown' needs a folder")
    #expect(
      problem("export", "--json", "--markdown", "out")
        == "'export' takes --json or --markdown DIR, not both")
    #expect(problem("list", "--markdown", "out") == "option '--markdown' does not apply to 'list'")
    #expect(problem("import", "a", "b") == "unexpected argument 'b' for 'import'")
    #expect(problem("export", "x") == "unexpected argument 'x' for 'export'")
  }

  @Test func badOptions() throws {
    #expect(problem("frobnicate") == "unknown command 'frobnicate'")
    #expect(problem("list", "--bogus") == "unknown option '--bogus'")
    #expect(problem("list", "-x") == "unknown option '-x'")
    #expect(problem("list", "--notebook") == "option '--notebook' needs a value")
    #expect(
      problem("list", "--notebook", "A", "--notebook", "B")
        == "option '--notebook' is given more than once")
    #expect(problem("list", "--json=yes") == "option '--json' takes no value")
    #expect(problem("list", "--title", "T") == "option '--title' does not apply to 'list'")
    #expect(problem("list", "--database", "") == "option '--database' needs a non-empty path")
    #expect(problem("list", "extra") == "unexpected argument 'extra' for 'list'")
    #expect(problem("--database") == "option '--database' needs a value")
  }
}
