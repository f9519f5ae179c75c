import NotesCore
import NotesFiles

/// A command line split into options and operands.
///
/// The `notes` command line is split first, then read as one command.
///
/// ## Guarantees
///
/// - Options may come before or after the subcommand and its operands; `--name value` and
///   `--name=value` are the same. The word after an option that takes a value is always
///   that value, even if it starts with `-`, so `--body -5` works.
/// - `--` ends the options: every later word is an operand (`notes search -- -draft`).
/// - `-h`/`--help` anywhere (not as a value) asks for help even if the rest is wrong;
///   otherwise the first problem is reported.
/// - An option given twice, an option the subcommand does not take, a missing value, a
///   missing or extra operand are all usage errors; nothing is guessed.
struct Arguments {
  /// Options that take a value.
  static let valueOptions: Set = [
    "--database", "--notebook", "--title", "--body", "--markdown", "--account", "--show",
    "--restore",
  ]
  /// Options that take no value.
  static let flags: Set = ["--json", "--create-notebook", "--yes", "--help", "-h", "--version"]

  /// Values by option name, such as `["--notebook": "Work"]`.
  private(set) var values: [String: String] = [:]
  /// The flags given, such as `["--json"]`.
  private(set) var givenFlags: Set<String> = []
  /// The words that are not options, in order: the subcommand, then its operands.
  private(set) var operands: [String] = []
  /// The first problem found while splitting, reported unless help was asked for.
  private(set) var problem: UsageError?

  /// Splits `words` into options and operands.
  ///
  /// - Parameter words: The arguments, without the program name.
  init(_ words: [String]) {
    var index = words.startIndex
    var optionsEnded = false
    while index < words.endIndex {
      let word = words[index]
      index += 1
      if optionsEnded || word == "-" || !word.hasPrefix("-") {
        operands.append(word)
        continue
      }
      if word == "--" {
        optionsEnded = true
        continue
      }
      var name = word
      var inlineValue: String?
      if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
        name = String(word[..<equals])
        inlineValue = String(word[word.index(after: equals)...])
      }
      if Self.valueOptions.contains(name) {
        if let value = inlineValue ?? (index < words.endIndex ? words[index] : nil) {
          if inlineValue == nil { index += 1 }
          if values[name] != nil { note("option '\(name)' is given more than once") }
          values[name] = value
        } else {
          note("option '\(name)' needs a value")
        }
      } else if Self.flags.contains(name) {
        if inlineValue != nil { note("option '\(name)' takes no value") }
        givenFlags.insert(name)
      } else {
        note("unknown option '\(DisplayText.short(name))'")
      }
    }
  }

  private mutating func note(_ message: String) {
    if problem == nil { problem = UsageError(message: message) }
  }

  /// Reads the arguments as one command.
  ///
  /// - Returns: The command.
  /// - Throws: A ``UsageError`` for the first problem.
  func command() throws(UsageError) -> NotesCommand {
    if givenFlags.contains("--help") || givenFlags.contains("-h") { return .help }
    if let problem { throw problem }
    if givenFlags.contains("--version") { return .version }
    let databasePath = values["--database"]
    if databasePath?.isEmpty == true {
      throw UsageError(message: "option '--database' needs a non-empty path")
    }
    guard let name = operands.first else {
      try allow([], flags: [], in: "the full-screen app")
      return .interactive(databasePath: databasePath)
    }
    if name == "help" { return .help }
    return .library(try libraryCommand(name), databasePath: databasePath)
  }

  private func libraryCommand(_ name: String) throws(UsageError) -> LibraryCommand {
    let json = givenFlags.contains("--json")
    switch name {
    case "list":
      try allow(["--notebook"], flags: ["--json"], operands: [], in: name)
      return .list(notebook: values["--notebook"], json: json)
    case "add":
      try allow(["--notebook", "--title", "--body"], flags: ["--create-notebook"], in: name)
      guard let notebook = values["--notebook"] else { throw missing("--notebook NAME", name) }
      guard let title = values["--title"] else { throw missing("--title TITLE", name) }
      return .add(
        notebook: notebook, title: title, body: values["--body"],
        createNotebook: givenFlags.contains("--create-notebook"))
    case "show":
      try allow([], flags: ["--json"], operands: ["ID"], in: name)
      return .show(try noteID(operands[1]), json: json)
    case "notebook":
      return .gesture(try notebookCommand())
    case "server":
      return .server(try serverCommand())
    case "sync":
      switch operands.dropFirst().first {
      case nil:
        try allow([], flags: [], operands: [], in: name)
        return .sync(.now)
      case "setup":
        try allow([], flags: [], operands: ["setup", "URL"], in: "sync setup")
        return .sync(.setup(url: operands[2]))
      case "status":
        try allow([], flags: ["--json"], operands: ["status"], in: "sync status")
        return .sync(.status(json: json))
      case "acknowledge":
        try allow([], flags: [], operands: ["acknowledge"], in: "sync acknowledge")
        return .sync(.acknowledge)
      case let other?:
        throw UsageError(
          message:
            "'sync' takes setup URL, status or acknowledge, not '\(DisplayText.short(other))'")
      }
    case "rename":
      try allow([], flags: [], operands: ["ID", "TITLE"], in: name)
      return .gesture(.rename(try noteID(operands[1]), to: operands[2]))
    case "move":
      try allow([], flags: [], operands: ["ID", "NOTEBOOK"], in: name)
      return .gesture(.move(try noteID(operands[1]), to: operands[2]))
    case "pin", "unpin":
      try allow([], flags: [], operands: ["ID"], in: name)
      return .gesture(.pin(try noteID(operands[1]), name == "pin"))
    case "delete":
      try allow([], flags: [], operands: ["ID"], in: name)
      return .gesture(.delete(try noteID(operands[1])))
    case "history":
      try allow(["--show", "--restore"], flags: ["--json"], operands: ["ID"], in: name)
      let id = try noteID(operands[1])
      switch (values["--show"], values["--restore"]) {
      case (nil, nil):
        return .history(id, json: json)
      case (let version?, nil):
        guard !json else { throw UsageError(message: "'history --show' takes no --json") }
        return .showVersion(id, version: try versionNumber(version))
      case (nil, let version?):
        guard !json else { throw UsageError(message: "'history --restore' takes no --json") }
        return .gesture(.restoreVersion(id, version: try versionNumber(version)))
      case (.some, .some):
        throw UsageError(message: "'history' takes --show or --restore, not both")
      }
    case "restore":
      try allow([], flags: [], operands: ["ID"], in: name)
      return .gesture(.restore(try noteID(operands[1])))
    case "trash":
      switch operands.dropFirst().first {
      case nil:
        try allow([], flags: ["--json"], operands: [], in: name)
        return .trash(json: json)
      case "empty":
        try allow([], flags: ["--yes"], operands: ["empty"], in: "trash empty")
        return .gesture(.emptyTrash(confirmed: givenFlags.contains("--yes")))
      case "keep":
        if operands.count <= 2 {
          try allow([], flags: [], operands: ["keep"], in: "trash keep")
          return .gesture(.keepDeletedNotes(days: nil))
        }
        try allow([], flags: [], operands: ["keep", "DAYS"], in: "trash keep")
        return .gesture(.keepDeletedNotes(days: try days(operands[2])))
      case let other?:
        throw UsageError(
          message: "'trash' takes empty or keep, not '\(DisplayText.short(other))'")
      }
    case "edit":
      try allow(["--body"], flags: [], operands: ["ID"], in: name)
      if let body = values["--body"], body != "-" {
        throw UsageError(message: "'edit' takes --body - (standard input) only")
      }
      return .gesture(.edit(try noteID(operands[1]), fromStandardInput: values["--body"] != nil))
    case "search":
      try allow([], flags: ["--json"], operands: ["QUERY"], in: name)
      return .search(query: operands[1], json: json)
    case "export":
      try allow(["--markdown"], flags: ["--json"], operands: [], in: name)
      guard let folder = values["--markdown"] else { return .export }
      if json { throw UsageError(message: "'export' takes --json or --markdown DIR, not both") }
      if folder.isEmpty { throw UsageError(message: "option '--markdown' needs a folder") }
      return .exportMarkdown(folder: folder)
    case "import":
      try allow([], flags: [], operands: ["FILE or DIR"], in: name)
      return .importLibrary(path: operands[1])
    default:
      throw UsageError(message: "unknown command '\(DisplayText.short(name))'")
    }
  }

  /// `server init URL [--account NAME]`, `server add-account NAME URL`,
  /// `server remove-account NAME URL [--yes]` or `server list-accounts URL`.
  private func serverCommand() throws(UsageError) -> ServerCommand {
    switch operands.dropFirst().first {
    case "init":
      try allow(["--account"], flags: [], operands: ["init", "URL"], in: "server init")
      return .initialize(url: operands[2], legacyAccount: values["--account"])
    case "add-account":
      try allow([], flags: [], operands: ["add-account", "NAME", "URL"], in: "server add-account")
      return .addAccount(name: operands[2], url: operands[3])
    case "remove-account":
      try allow(
        [], flags: ["--yes"], operands: ["remove-account", "NAME", "URL"],
        in: "server remove-account")
      return .removeAccount(
        name: operands[2], url: operands[3], confirmed: givenFlags.contains("--yes"))
    case "list-accounts":
      try allow([], flags: [], operands: ["list-accounts", "URL"], in: "server list-accounts")
      return .listAccounts(url: operands[2])
    case let other:
      let what = other.map { ", not '\(DisplayText.short($0))'" } ?? ""
      throw UsageError(
        message:
          "'server' takes init URL, add-account NAME URL, remove-account NAME URL or"
          + " list-accounts URL\(what)")
    }
  }

  /// `notebook add NAME`, `notebook rename NAME TITLE` or `notebook delete NAME [--yes]`.
  private func notebookCommand() throws(UsageError) -> GestureCommand {
    let action = operands.dropFirst().first
    let rest = Array(operands.dropFirst(2))
    func expect(_ names: [String], flags: Set<String> = []) throws(UsageError) {
      let command = "notebook \(action ?? "")"
      for name in values.keys.sorted() where name != "--database" {
        throw UsageError(message: "option '\(name)' does not apply to '\(command)'")
      }
      for flag in givenFlags.sorted() where !flags.contains(flag) {
        throw UsageError(message: "option '\(flag)' does not apply to '\(command)'")
      }
      if rest.count < names.count { throw missing(names[rest.count], command) }
      if rest.count > names.count {
        throw UsageError(
          message: "unexpected argument '\(DisplayText.short(rest[names.count]))' for '\(command)'"
        )
      }
    }
    switch action {
    case "add":
      try expect(["NAME"])
      return .addNotebook(rest[0])
    case "rename":
      try expect(["NAME", "TITLE"])
      return .renameNotebook(rest[0], to: rest[1])
    case "delete":
      try expect(["NAME"], flags: ["--yes"])
      return .deleteNotebook(rest[0], confirmed: givenFlags.contains("--yes"))
    case nil:
      throw UsageError(message: "'notebook' needs add, rename or delete")
    case let other?:
      throw UsageError(
        message: "unknown notebook command '\(DisplayText.short(other))' (add, rename or delete)")
    }
  }

  /// A note id operand.
  private func versionNumber(_ word: String) throws(UsageError) -> Int64 {
    guard word.allSatisfy(\.isASCII), word.allSatisfy(\.isNumber), let number = Int64(word)
    else {
      throw UsageError(
        message: "a VERSION is a whole number such as 7, not '\(DisplayText.short(word))'")
    }
    return number
  }

  private func days(_ word: String) throws(UsageError) -> Int {
    guard word.allSatisfy(\.isASCII), word.allSatisfy(\.isNumber), let days = Int(word) else {
      throw UsageError(
        message: "DAYS is a whole number such as 30, not '\(DisplayText.short(word))'")
    }
    return days
  }

  private func noteID(_ word: String) throws(UsageError) -> NoteID {
    guard word.allSatisfy(\.isASCII), word.allSatisfy(\.isNumber), let id = Int64(word) else {
      throw UsageError(
        message: "a note ID is a whole number such as 12, not '\(DisplayText.short(word))'")
    }
    return NoteID(rawValue: id)
  }

  /// Throws unless every option given is `--database` or in `options`/`flags`, and the
  /// operands after the subcommand are exactly those named in `operands`.
  private func allow(
    _ options: Set<String>, flags: Set<String>, operands expected: [String] = [],
    in command: String
  ) throws(UsageError) {
    for name in values.keys.sorted() where name != "--database" && !options.contains(name) {
      throw UsageError(message: "option '\(name)' does not apply to \(quoted(command))")
    }
    for flag in givenFlags.sorted() where !flags.contains(flag) {
      throw UsageError(message: "option '\(flag)' does not apply to \(quoted(command))")
    }
    let given = operands.dropFirst()
    if given.count < expected.count {
      throw missing(expected[given.count], command)
    }
    if given.count > expected.count {
      let extra = DisplayText.short(given.dropFirst(expected.count).first ?? "")
      let hint = expected == ["QUERY"] ? " (quote a query of several words)" : ""
      throw UsageError(message: "unexpected argument '\(extra)' for '\(command)'\(hint)")
    }
  }

  private func missing(_ what: String, _ command: String) -> UsageError {
    UsageError(message: "'\(command)' needs \(what)")
  }

  private func quoted(_ command: String) -> String {
    operands.isEmpty ? command : "'\(command)'"
  }
}
