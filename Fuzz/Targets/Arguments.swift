// Fuzz target: the `notes` command line, from raw argument bytes to a command.
//
// The input is the argument words separated by NUL bytes (a word cannot hold one), each
// decoded as `CommandLine.arguments` decodes them (invalid UTF-8 repaired).
//
// Contract checked for every input:
// - Parsing never crashes: it gives a command, or a usage error whose message is not
//   empty and holds no control character (it is printed to a terminal as it is).
// - `--help` as a word of its own asks for help, whatever else is wrong, unless it is
//   the value of the option before it or comes after `--`.
// - What is accepted round-trips: the command written back as a canonical command line
//   parses to the same command.

import Foundation
import NotesCore

@testable import NotesCommandLine

private func check(_ words: [String]) {
  let command: NotesCommand
  do {
    command = try NotesCommandLine.parse(words)
  } catch {
    expect(!error.message.isEmpty, "a usage error without a message")
    expect(
      !error.message.unicodeScalars.contains { $0.properties.generalCategory == .control },
      "the usage error \(error.message.debugDescription) holds a control character")
    checkHelp(words)
    return
  }
  checkHelp(words)
  let written = canonicalWords(command)
  do {
    let again = try NotesCommandLine.parse(written)
    expect(again == command, "\(written) parses to \(again), not \(command)")
  } catch {
    fail("\(written), written back from \(command), is refused: \(error.message)")
  }
}

/// Checks that `--help` appended as a word asks for help when it is read as an option.
private func checkHelp(_ words: [String]) {
  if words.contains("--") { return }
  if let last = words.last, Arguments.valueOptions.contains(last) { return }
  let command = try? NotesCommandLine.parse(words + ["--help"])
  expect(command == .help, "\(words) + --help is \(String(describing: command)), not help")
}

/// A command line that asks for `command`: options as `--name value`, operands after `--`.
private func canonicalWords(_ command: NotesCommand) -> [String] {
  switch command {
  case .interactive(let path): return database(path)
  case .help: return ["--help"]
  case .version: return ["--version"]
  case .library(let library, let path):
    let options = database(path)
    switch library {
    case .list(let notebook, let json):
      return ["list"] + options + optional("--notebook", notebook) + flag("--json", json)
    case .add(let notebook, let title, let body, let createNotebook):
      return ["add", "--notebook", notebook, "--title", title] + optional("--body", body)
        + flag("--create-notebook", createNotebook) + options
    case .show(let id, let json):
      return ["show"] + options + flag("--json", json) + ["--", String(id.rawValue)]
    case .search(let query, let json):
      return ["search"] + options + flag("--json", json) + ["--", query]
    case .trash(let json):
      return ["trash"] + options + flag("--json", json)
    case .history(let id, let json):
      return ["history"] + options + flag("--json", json) + ["--", String(id.rawValue)]
    case .showVersion(let id, let version):
      return ["history"] + options + ["--show", String(version), "--", String(id.rawValue)]
    case .export:
      return ["export"] + options
    case .exportMarkdown(let folder):
      return ["export"] + options + ["--markdown", folder]
    case .importLibrary(let path):
      return ["import"] + options + ["--", path]
    case .server(let server):
      return serverWords(server, options)
    case .sync(.now):
      return ["sync"] + options
    case .sync(.setup(let url)):
      return ["sync", "setup"] + options + ["--", url]
    case .sync(.status(let json)):
      return ["sync", "status"] + options + (json ? ["--json"] : [])
    case .sync(.acknowledge):
      return ["sync", "acknowledge"] + options
    case .gesture(let gesture):
      return gestureWords(gesture, options)
    }
  }
}

/// A command line for a server command, operands after `--`.
private func serverWords(_ server: ServerCommand, _ options: [String]) -> [String] {
  switch server {
  case .initialize(let url, let account):
    ["server", "init"] + options + optional("--account", account) + ["--", url]
  case .addAccount(let name, let url): ["server", "add-account"] + options + ["--", name, url]
  case .removeAccount(let name, let url, let confirmed):
    ["server", "remove-account"] + options + flag("--yes", confirmed) + ["--", name, url]
  case .listAccounts(let url): ["server", "list-accounts"] + options + ["--", url]
  }
}

/// A command line for a gesture command, operands after `--`.
private func gestureWords(_ gesture: GestureCommand, _ options: [String]) -> [String] {
  switch gesture {
  case .addNotebook(let name): ["notebook", "add"] + options + ["--", name]
  case .renameNotebook(let name, let title):
    ["notebook", "rename"] + options + ["--", name, title]
  case .deleteNotebook(let name, let confirmed):
    ["notebook", "delete"] + options + flag("--yes", confirmed) + ["--", name]
  case .rename(let id, let title): ["rename"] + options + ["--", String(id.rawValue), title]
  case .move(let id, let notebook):
    ["move"] + options + ["--", String(id.rawValue), notebook]
  case .pin(let id, let isPinned):
    [isPinned ? "pin" : "unpin"] + options + ["--", String(id.rawValue)]
  case .delete(let id): ["delete"] + options + ["--", String(id.rawValue)]
  case .restore(let id): ["restore"] + options + ["--", String(id.rawValue)]
  case .emptyTrash(let confirmed): ["trash", "empty"] + options + flag("--yes", confirmed)
  case .keepDeletedNotes(let days):
    ["trash", "keep"] + options + ["--"] + (days.map { [String($0)] } ?? [])
  case .restoreVersion(let id, let version):
    ["history"] + options + ["--restore", String(version), "--", String(id.rawValue)]
  case .edit(let id, let fromStandardInput):
    ["edit"] + options + (fromStandardInput ? ["--body", "-"] : []) + ["--", String(id.rawValue)]
  }
}

private func database(_ path: String?) -> [String] { optional("--database", path) }

private func optional(_ name: String, _ value: String?) -> [String] {
  value.map { [name, $0] } ?? []
}

private func flag(_ name: String, _ given: Bool) -> [String] { given ? [name] : [] }

/// libFuzzer's entry point: checks the contract on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: start, count: count)
  let words = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
    String(decoding: $0, as: UTF8.self)
  }
  check(count == 0 ? [] : words)
  return 0
}
