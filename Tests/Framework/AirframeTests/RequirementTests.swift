import Airframe
import AirframeTesting
import Testing

/// An Action Controller's requirement hands the value it checked to `makeAction`.
@Suite(.noLiveBindings)
@MainActor
struct RequirementTests {
  @Test func anOptionalBecomesMetOrUnmetWithTheReason() {
    #expect(Requirement(Optional(3), otherwise: "none").isMet)
    let unmet = Requirement<Int>(nil, otherwise: "Select a note.")
    #expect(!unmet.isMet)
    #expect(unmet.availability == .disabled("Select a note."))
    #expect(Requirement.met(1).availability == .enabled)
    #expect(Requirement<Int>.unmet(Availability.enabled).availability.reason == "Unavailable.")
  }

  @Test func thenCarriesTheCheckedValueOrTheFirstRefusal() {
    let selected = Requirement(Optional(4), otherwise: "Select a note.")
    #expect(selected.then { $0 > 3 ? .met("big") : .unmet("small") }.isMet)
    #expect(
      selected.then { _ in Requirement<String>.unmet("No room.") }.availability.reason == "No room."
    )
    let none = Requirement<Int>(nil, otherwise: "Select a note.")
    var asked = false
    let chained = none.then { value -> Requirement<Int> in
      asked = true
      return .met(value)
    }
    #expect(!asked)
    #expect(chained.availability.reason == "Select a note.")
  }

  @Test func makeActionGetsTheCheckedValueAndRunsOnlyWhenMet() {
    let dispatcher = ActionDispatcher(
      model: Model(Library(notes: EntityTable([Note(id: 1, title: "a")]))))
    let selection = StateSource<Int?>(nil)
    var built: [Int] = []
    let delete = ActionController(dispatcher: dispatcher, reading: selection) {
      selected, state in
      Requirement(selected.flatMap { state.notes[$0]?.id }, otherwise: "Select a note.")
    } makeAction: { (id: Int) in
      built.append(id)
      return DeleteNote(id: id)
    }
    let availability = ValueRecorder(delete.availability)
    #expect(availability.last?.reason == "Select a note.")
    #expect(
      delete.trigger()
        == .invalid(
          ValidationResult([
            ValidationIssue(field: "command", message: "Select a note.")
          ])))
    #expect(built.isEmpty)
    selection.set(1)
    #expect(availability.last == .enabled)
    #expect(delete.trigger().isCommitted)
    // Once for the availability after the selection, once for the trigger.
    #expect(built.last == 1)
    #expect(dispatcher.model.state.notes.count == 0)
    #expect(availability.last?.reason == "Select a note.")
    availability.cancel()
    delete.cancel()
  }
}
