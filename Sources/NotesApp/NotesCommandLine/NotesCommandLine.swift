import Foundation
import NotesStorage

/// The `notes` command line.
///
/// The `notes` command's arguments and subcommands, for scripts.
///
/// ```swift
/// let command = try NotesCommandLine.parse(["list", "--notebook", "Work", "--json"])
/// let status = NotesCommandLine.execute(command, io: .standard)  // 0: printed a JSON array
/// ```
///
/// ## Guarantees
///
/// - `parse` never touches a file; `execute` runs one command against the library and
///   returns its exit code (see `ExitCode` and the usage text, which document them).
/// - Results go to standard output; every problem goes to standard error as
///   "notes: <message>" lines, with a non-zero exit code.
/// - A command that fails leaves the library as it was: writes are all-or-nothing.
/// - The database is closed before `execute` returns.
public enum NotesCommandLine {
  /// The version `--version` prints.
  public static let version = "0.1.0"

  /// What `--help` prints.
  public static let usage = """
    usage: notes [--database PATH]                 open the full-screen app
           notes COMMAND [OPTIONS] [--database PATH]

    commands:
      list [--notebook NAME] [--json]
          List notes, one per line: id, notebook and title, separated by tabs; by
          notebook, then pinned first, then most recently modified.
      add --notebook NAME --title TITLE [--body TEXT] [--create-notebook]
          Add a note and print its id. Without --body the body is read from
          standard input (UTF-8, kept exactly), or is empty when that is a
          terminal. The notebook must exist unless --create-notebook is given.
      show ID [--json]
          Print a note: its id, title, notebook, dates and pin, a blank line,
          then its body.
      search QUERY [--json]
          List the notes containing every word of QUERY (as word prefixes), most
          relevant first. Quote a query of several words.
      export [--json]
          Print the whole library as one JSON document (version 1), with ids.
      export --markdown DIR
          Write the library as Markdown files into DIR, which must not exist or
          be empty (else exit status 73): one folder per notebook, holding a
          .notebook.md with its exact title and date, and one .md file per note:
          a front matter block (title, created, modified, pinned) between ---
          lines, then the body byte for byte. Names are safe on every common
          file system, unique ignoring case ("Plan 2.md") and never start
          with - (a leading - becomes _: "-rf" is _rf.md). Everything is
          written beside DIR first and moved into place at the end.
      rename ID TITLE
          Give a note a new title.
      move ID NOTEBOOK
          Move a note to another notebook.
      pin ID
          Pin a note: pinned notes are listed first.
      unpin ID
          Unpin a note.
      delete ID
          Move a note to Recently Deleted, where it stays for 30 days (see
          trash keep).
      trash [--json]
          List Recently Deleted: id, notebook, title and when it was deleted,
          most recently deleted first.
      restore ID
          Put a note from Recently Deleted back where it was (its notebook is
          recreated if it was deleted too).
      trash empty [--yes]
          Delete every note in Recently Deleted for good; only with --yes.
      trash keep [DAYS]
          Print how many days the library keeps deleted notes before they go
          for good (30 unless changed); with DAYS (1 to 365), change it. Notes
          past the new limit go the next time a program opens the library.
      history ID [--json]
          List a note's kept versions, newest first: version, when it was saved
          (ISO 8601, UTC), where (this device, another device, a merge, a
          restored version, before history was kept) and title. Saves within a
          minute are one version; older versions are thinned: all of the last
          day, one an hour for a week, one a day for 30 days, one a week after.
      history ID --show VERSION
          Print one kept version: its fields, a blank line, then its text.
      history ID --restore VERSION
          Make a kept version the note's title and text again (a new edit).
      edit ID [--body -]
          Edit a note's body in $VISUAL (else $EDITOR) and save what is written
          there; with --body -, read the new body from standard input.
      notebook add NAME
          Add a notebook and print its id.
      notebook rename NAME TITLE
          Give a notebook a new title.
      notebook delete NAME [--yes]
          Delete a notebook. One with notes is deleted, with its notes, only
          with --yes; without, nothing changes and the exit status is 65.
      server init URL [--account NAME]
          Create the sync server's tables on a PostgreSQL database, or upgrade
          them; URL is a libpq connection string (postgresql://user@host/db) for
          the operator: a superuser, or the role that owns the tables. A
          password comes from the URL, $PGPASSWORD or the password file. A
          server from before accounts that holds notes is upgraded only with
          --account NAME, the account they then belong to. A server whose
          schema is newer than this program's is refused.
      server add-account NAME URL
          Add an account: a login role that reaches only its own notes. Its
          password is read from the terminal without echo (twice), or from
          standard input when that is not a terminal; it is never printed or
          stored. NAME: lower-case letters, digits and underscores, not a name
          the server reserves (none, public, pg_..., current_user, all, ...).
      server remove-account NAME URL [--yes]
          Remove an account, its role and its notes on the server (devices keep
          their copies); one that holds notes only with --yes.
      server list-accounts URL
          List the accounts: devices, notebooks, notes and last push of each.
      sync setup URL
          Sync this library with the server at URL, as the account URL names
          (never a superuser or the tables' owner: refused). Leave the password
          out of URL: when the server wants one, it is read from the terminal
          without echo, or from standard input when that is not a terminal. It
          goes to the password file ($PGPASSFILE, else ~/.pgpass, mode 0600),
          never into the library. A server that is not on this machine needs
          sslmode=verify-full in URL unless URL names another sslmode.
      sync
          Sync now: push what changed here, pull what changed elsewhere, merge,
          and print what moved and any notice (a conflict copy, an edit that
          beat a delete), and every version from the server kept aside because
          it breaks the app's rules (the rest still applies).
      sync status [--json]
          Print the server, this device's id, the pending changes, the last
          sync, the notices and the versions kept aside; --json prints one
          object {"setUp", "server", "device", "pending", "lastSynced",
          "notices", "keptAside"}.
      sync acknowledge
          Mark every notice and kept-aside version read.
      import FILE
          Add the notebooks and notes of an export; FILE - reads standard input.
          New ids are assigned; a notebook whose title exists already is merged
          into it. All or nothing: one refused item saves nothing. The document:
      {"version": 1, "notebooks": [{"id", "title", "created"}], "notes":
      [{"id", "notebookID", "title", "body", "created", "modified", "pinned"}]};
      a note's notebookID is the id of one of its notebooks. Only "version",
      the lists, ids, titles and notebookID are required.
      import DIR
          Add the notes of a folder (an export --markdown, or .md, .markdown
          and .txt files from anywhere). Each folder holding notes is a
          notebook: titled by its .notebook.md, else its path below DIR
          ("Work/Projects"); files directly in DIR go to a notebook named
          after DIR. A note's title is its front matter's title, else a
          "# Heading" on its first line, else its file name; its body is the
          rest of the file, kept exactly; a missing date is the file's
          modification time. A name may start with a dot (..md is a note);
          only .notebook.md is a notebook's own file. Nothing outside DIR is
          read: a link is followed only to a file inside DIR. Links leading
          out of DIR, links to folders, broken links, other files and hidden
          folders (.git, .obsidian) are skipped, and each is listed with its
          path and why. A file that is not UTF-8, cannot be read, or whose
          front matter or content is refused is named with the reason; all
          or nothing, as for FILE.

    options (also written --name=value):
      --database PATH  The library file, before or after the command. Default:
                       $AIRFRAME_NOTES_DATABASE, else
                       $XDG_DATA_HOME/airframe-notes/notes.sqlite, else
                       ~/.local/share/airframe-notes/notes.sqlite. A missing file
                       is created empty; the full-screen app instead starts a new
                       library with sample notes.
      --json           Print JSON: notes as objects {id, notebook, title, body,
                       created, modified, pinned}.
      --markdown DIR   export: write Markdown files into DIR instead.
      --yes            Confirm deleting a notebook, or removing an account,
                       that has notes.
      --account NAME   server init: the account that a server's notes from
                       before accounts belong to.
      -h, --help       Print this help.
      --version        Print the version.
      --               Treat every later word as an operand, even if it starts
                       with '-'.

    Notebook names match ignoring case. Dates are ISO 8601 in UTC, to the
    millisecond (in Markdown front matter, with every digit that keeps them
    exact). Titles are at most 200 characters, bodies 1,000,000; neither may
    hold control characters (bodies may hold tabs and line breaks).

    A library this user may read but not write (a read-only file or folder,
    another user's library) is opened read-only by list, show, search,
    export and sync status, and nothing on disk changes, not even a -wal or
    -shm file beside it; every other command refuses it (exit status 73).

    exit status:
      0   success
      1   the library cannot be opened, read or saved (not a notes library,
          from a newer version, …)
      64  the command line is wrong
      65  invalid input (not UTF-8, not a notes export, an unusable password,
          or refused with the reasons printed); nothing was saved
      66  no such note, notebook or file, or a library this user may not read
      69  the sync server cannot be reached, or the connection to it was lost;
          what was pending stays pending
      73  export --markdown cannot create DIR (it exists and is not empty, or
          this user may not write there), or a command that changes the
          library may not write it; nothing was written
      74  the disk is full, or failed reading or writing (an I/O error);
          nothing was saved

    """

  /// Parses the arguments after the program name.
  ///
  /// Options may come before or after the subcommand; `--name=value` works too.
  ///
  /// - Parameter arguments: The arguments, without the program name.
  /// - Returns: The command; `.interactive` when no subcommand is given.
  /// - Throws: A ``UsageError`` saying what is wrong.
  public static func parse(_ arguments: [String]) throws(UsageError) -> NotesCommand {
    try Arguments(arguments).command()
  }

  /// Runs a command other than `.interactive`.
  ///
  /// Opens the library (creating a missing file, empty), runs the command, and closes it.
  /// Output goes to `io.write`; each problem to `io.writeError` as a "notes: " line.
  ///
  /// - Parameters:
  ///   - command: The command.
  ///   - io: Where it reads and writes.
  /// - Returns: The exit status, an ``ExitCode`` value: 0 on success.
  @MainActor
  public static func execute(_ command: NotesCommand, io: CommandIO) -> Int32 {
    switch command {
    case .help:
      io.write(usage)
    case .version:
      io.write("notes \(version)\n")
    case .interactive:
      io.writeError("notes: the full-screen app needs the notes program's terminal\n")
      return ExitCode.usage.rawValue
    case .library(let command, let databasePath):
      do {
        try run(command, databasePath: databasePath, io: io)
      } catch {
        io.writeError(error.lines.map { "notes: \($0)\n" }.joined())
        return error.code.rawValue
      }
    }
    return ExitCode.success.rawValue
  }

  @MainActor
  private static func run(
    _ command: LibraryCommand, databasePath: String?, io: CommandIO
  ) throws(CommandFailure) {
    switch command {
    case .add(let notebook, let title, let body, let createNotebook):
      return try WriteCommands.add(
        notebook: notebook, title: title, body: body, createNotebook: createNotebook,
        databasePath: databasePath, io: io)
    case .importLibrary(let path):
      return try WriteCommands.importLibrary(from: path, databasePath: databasePath, io: io)
    case .exportMarkdown(let folder):
      return try ExportCommand.markdown(to: folder, databasePath: databasePath, io: io)
    case .server(let command):
      return try ServerCommands.run(command, io: io)
    case .sync(let command):
      if command != .status(json: true), command != .status(json: false) {
        // Every sync command but status changes the library: one it may not write is
        // refused here, in words, before anything is done.
        try LibrarySession(databasePath: databasePath, access: .readWrite).close()
      }
      return try SyncCommands.run(command, databasePath: databasePath, io: io)
    case .gesture(let gesture):
      return try GestureCommands.run(
        gesture, databasePath: databasePath, io: io,
        environment: ProcessInfo.processInfo.environment)
    default:
      break
    }
    let session = try LibrarySession(databasePath: databasePath)
    defer { session.close() }
    switch command {
    case .list(let notebook, let json):
      try ReadCommands.list(notebook: notebook, json: json, in: session, io: io)
    case .show(let id, let json):
      try ReadCommands.show(id, json: json, in: session, io: io)
    case .search(let query, let json):
      try ReadCommands.search(query, json: json, in: session, io: io)
    case .trash(let json):
      try ReadCommands.trash(json: json, in: session, io: io)
    case .history(let id, let json):
      try HistoryCommands.history(of: id, json: json, in: session, io: io)
    case .showVersion(let id, let version):
      try HistoryCommands.showVersion(version, of: id, in: session, io: io)
    case .export:
      try ReadCommands.export(from: session, io: io)
    case .add, .importLibrary, .exportMarkdown, .gesture, .server, .sync:
      break
    }
  }
}
