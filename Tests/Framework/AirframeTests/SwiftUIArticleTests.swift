import Airframe
import AirframeTesting
import Foundation
import Observation
import Testing

// The code of the DocC article "Using Airframe from SwiftUI"
// (Sources/Framework/Airframe/Airframe.docc/SwiftUI.md), run here through
// `withObservationTracking`, which is how SwiftUI tracks what a body reads. The article
// cannot drift from this code: `theArticleShowsTheCodeThatRuns` reads the article and
// fails unless its `LibraryScreen` block is the one between the markers below, line for
// line, and every expression its `LibraryView.body` reads from the screen is read by
// `body(of:)`.

// article: LibraryScreen
@MainActor
final class LibraryScreen {
  let notes: ListLens<Library, Note, Note>
  let addNote: ActionController<Library, String>
  let deleteNote: ActionController<Library, Void>

  init(dispatcher: ActionDispatcher<Library>) {
    let model = dispatcher.model
    notes = ListLens(model: model, table: \.notes, order: .by(\.title))
    addNote = ActionController(dispatcher: dispatcher) { title in
      AddNote(note: Note(id: (model.state.notes.byID.keys.max() ?? 0) + 1, title: title))
    }
    deleteNote = ActionController(dispatcher: dispatcher, reading: notes.selection) {
      selected, _ in
      Requirement(selected, otherwise: "Select a note to delete.")
    } makeAction: { selected in
      DeleteNote(id: selected)
    }
  }

  /// Ends the screen's connections to the model when the screen goes away.
  func cancel() {
    notes.cancel()
    addNote.cancel()
    deleteNote.cancel()
  }
}
// article: end

/// What `LibraryView.body` shows: the rows, and each button's state.
struct LibraryBody: Equatable {
  var titles: [String]
  var canAdd: Bool
  var deleteHelp: String?
}

/// The article's `LibraryView.body`, as values.
@MainActor
func body(of screen: LibraryScreen) -> LibraryBody {
  // article: body
  LibraryBody(
    titles: screen.notes.rows.map(\.title),
    canAdd: screen.addNote.availability.value.isEnabled,
    deleteHelp: screen.deleteNote.availability.value.reason)
  // article: end
}

@Suite(.noLiveBindings)
@MainActor
struct SwiftUIArticleTests {
  /// Evaluates the body inside `withObservationTracking`, as SwiftUI does.
  func render(_ screen: LibraryScreen, invalidations: Counter) -> LibraryBody {
    withObservationTracking {
      body(of: screen)
    } onChange: {
      invalidations.increment()
    }
  }

  @Test func aButtonsIntentReachesTheListThroughObservation() {
    let dispatcher = ActionDispatcher(model: Model(Library()))
    let screen = LibraryScreen(dispatcher: dispatcher)
    let invalidations = Counter()
    #expect(
      render(screen, invalidations: invalidations)
        == LibraryBody(titles: [], canAdd: true, deleteHelp: "Select a note to delete."))

    // The "Add Note" button's action: an intent to the Action Controller.
    #expect(screen.addNote.trigger("Groceries").isCommitted)
    #expect(invalidations.value == 1)
    #expect(render(screen, invalidations: invalidations).titles == ["Groceries"])
    screen.cancel()
  }

  @Test func availabilityThatFollowsTheSelectionInvalidatesTheBody() {
    let dispatcher = ActionDispatcher(
      model: Model(Library(notes: EntityTable([Note(id: 1, title: "Books")]))))
    let screen = LibraryScreen(dispatcher: dispatcher)
    let invalidations = Counter()
    #expect(render(screen, invalidations: invalidations).deleteHelp == "Select a note to delete.")

    // Selecting a row (view state) makes "Delete" available: the body is invalidated.
    screen.notes.select(1)
    #expect(invalidations.value == 1)
    #expect(render(screen, invalidations: invalidations).deleteHelp == nil)

    #expect(screen.deleteNote.trigger().isCommitted)
    #expect(invalidations.value == 2)
    #expect(
      render(screen, invalidations: invalidations)
        == LibraryBody(titles: [], canAdd: true, deleteHelp: "Select a note to delete."))
    screen.cancel()
  }

  @Test func theArticleShowsTheCodeThatRuns() throws {
    let here = URL(fileURLWithPath: #filePath)
    // Tests/Framework/AirframeTests/ThisFile.swift → Sources/Framework/Airframe/…
    let shelf = here.deletingLastPathComponent().deletingLastPathComponent()
    let sources = shelf.deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/Framework")
    let article = try String(
      contentsOf: sources.appendingPathComponent("Airframe/Airframe.docc/SwiftUI.md"),
      encoding: .utf8)
    let test = try String(contentsOf: here, encoding: .utf8)
    let blocks = ArticleCode.swiftBlocks(in: article)
    let screenBlock = try #require(blocks.first { $0.contains("final class LibraryScreen") })
    let viewBlock = try #require(blocks.first { $0.contains("struct LibraryView") })
    let shownScreen = screenBlock.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
      .trimmingCharacters(in: .newlines)
    let compiledScreen = try #require(ArticleCode.marked("LibraryScreen", in: test))
    #expect(shownScreen == compiledScreen)
    let compiledBody = try #require(ArticleCode.marked("body", in: test))
    let reads = ArticleCode.screenReads(in: viewBlock).filter { !$0.hasSuffix(".trigger") }
    #expect(!reads.isEmpty)
    for read in reads {
      #expect(compiledBody.contains(read), "body(of:) does not read \(read)")
    }
  }
}

/// Reads code out of the article and out of this file.
enum ArticleCode {
  /// The contents of every fenced `swift` block, in order.
  static func swiftBlocks(in markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```swift" {
        current = []
      } else if current != nil, line == "```" {
        blocks.append(current!.joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  /// The lines between `// article: NAME` and the next `// article: end`, without
  /// their common indentation.
  static func marked(_ name: String, in source: String) -> String? {
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    guard
      let start = lines.firstIndex(where: {
        $0.trimmingCharacters(in: .whitespaces) == "// article: \(name)"
      }),
      let end = lines[(start + 1)...].firstIndex(where: {
        $0.trimmingCharacters(in: .whitespaces) == "// article: end"
      })
    else { return nil }
    let body = lines[(start + 1)..<end]
    let indent =
      body.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
    return body.map { $0.isEmpty ? "" : String($0.dropFirst(indent)) }.joined(separator: "\n")
      .trimmingCharacters(in: .newlines)
  }

  /// Every `screen.…` member chain the view's code reads, such as
  /// `screen.notes.rows`, without a trailing call or closure.
  static func screenReads(in code: String) -> Set<String> {
    var reads: Set<String> = []
    var rest = Substring(code)
    while let range = rest.range(of: "screen.") {
      let chain = rest[range.lowerBound...].prefix { $0.isLetter || $0.isNumber || $0 == "." }
      reads.insert(String(chain.hasSuffix(".") ? chain.dropLast() : chain))
      rest = rest[range.upperBound...]
    }
    return reads
  }
}
