// The zone list: a model that keeps selection valid, an adapter that projects rows, and
// a binder that connects both directions to a list control.

import AirframeBinding
import AirframeTesting
import Testing

struct ZoneChoice: Equatable, Sendable {
  let id: String
  let title: String
}

struct ZoneRow: Equatable {
  let id: String
  let text: String
  let isSelected: Bool
}

/// Owns the zone state and rejects selections it does not know.
@MainActor
final class ZoneModel {
  struct State: Equatable {
    var choices: [ZoneChoice]
    var selectedID: String
  }

  let state: StateSource<State>

  init(choices: [ZoneChoice], selectedID: String) {
    state = StateSource(State(choices: choices, selectedID: selectedID))
  }

  /// Selects `id`; returns false (and changes nothing) for an unknown id.
  @discardableResult
  func select(_ id: String) -> Bool {
    guard state.value.choices.contains(where: { $0.id == id }) else { return false }
    state.update { $0.selectedID = id }
    return true
  }
}

/// Projects zone state into rows and forwards selections.
@MainActor
final class ZoneAdapter {
  private let model: ZoneModel
  let rows: DerivedState<[ZoneRow]>

  init(model: ZoneModel) {
    self.model = model
    rows = model.state.map { state in
      state.choices.map {
        ZoneRow(id: $0.id, text: $0.title, isSelected: $0.id == state.selectedID)
      }
    }
  }

  func select(_ id: String) { model.select(id) }

  /// The binding of this adapter to a list control.
  func bind(_ binder: Binder, to list: ListControl<ZoneRow>) {
    binder.bind { connect in
      connect.render(rows) { list.render($0) }
      connect.forward(list.selection) { [weak self] in self?.select($0) }
    }
  }
}

@Suite(.noLiveBindings)
@MainActor
struct ZoneListTests {
  let choices = [ZoneChoice(id: "a", title: "Amman"), ZoneChoice(id: "b", title: "Berlin")]

  /// A zone list bound to a fresh model through its adapter; the caller cancels `binder`.
  @MainActor
  struct Fixture {
    let model: ZoneModel
    let adapter: ZoneAdapter
    let list = ListControl<ZoneRow>()
    let binder = Binder()
  }

  func boundList() -> Fixture {
    let model = ZoneModel(choices: choices, selectedID: "a")
    let fixture = Fixture(model: model, adapter: ZoneAdapter(model: model))
    fixture.adapter.bind(fixture.binder, to: fixture.list)
    return fixture
  }

  @Test func initialReplayRendersTheRows() {
    let zones = boundList()
    #expect(
      zones.list.rows == [
        ZoneRow(id: "a", text: "Amman", isSelected: true),
        ZoneRow(id: "b", text: "Berlin", isSelected: false),
      ])
    zones.binder.cancel()
  }

  @Test func userSelectionReachesTheModelAndComesBackAsRenderedRows() {
    let zones = boundList()
    zones.list.userSelects("b")
    #expect(zones.model.state.value.selectedID == "b")
    #expect(zones.list.rows.map(\.isSelected) == [false, true])
    zones.binder.cancel()
  }

  @Test func unknownIdIsRejectedAndNothingIsRendered() {
    let zones = boundList()
    let rendersBefore = zones.list.renderCount
    zones.list.userSelects("unknown")
    #expect(zones.model.state.value.selectedID == "a")
    #expect(zones.list.renderCount == rendersBefore)
    zones.binder.cancel()
  }

  @Test func afterCancelNeitherObservationNorInputForwardingWorks() {
    let zones = boundList()
    zones.list.userSelects("b")
    zones.binder.cancel()
    let frozen = zones.list.rows
    zones.model.select("a")
    #expect(zones.list.rows == frozen)
    #expect(!zones.list.userSelects("b"))
    #expect(zones.model.state.value.selectedID == "a")
  }
}
