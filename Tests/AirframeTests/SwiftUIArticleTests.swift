import Airframe
import AirframeTesting
import Observation
import Testing

// The code of the DocC article "Using Airframe from SwiftUI"
// (Sources/Airframe/Airframe.docc/SwiftUI.md), run here through
// `withObservationTracking`, which is how SwiftUI tracks what a body reads. Keep the two
// in step: `LibraryScreen` is the article's, and `body(of:)` reads exactly what the
// article's `LibraryView.body` reads.

/// The controllers one screen of the app reads and sends intents to.
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
      selected == nil ? .disabled("Select a note to delete.") : .enabled
    } makeAction: { selected in
      DeleteNote(id: selected!)
    }
  }

  func cancel() {
    notes.cancel()
    addNote.cancel()
    deleteNote.cancel()
  }
}

/// What `LibraryView.body` shows: the rows, and each button's state.
struct LibraryBody: Equatable {
  var titles: [String]
  var canAdd: Bool
  var deleteHelp: String?
}

/// The article's `LibraryView.body`, as values.
@MainActor
func body(of screen: LibraryScreen) -> LibraryBody {
  LibraryBody(
    titles: screen.notes.rows.map(\.title),
    canAdd: screen.addNote.availability.value.isEnabled,
    deleteHelp: screen.deleteNote.availability.value.reason)
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
}
