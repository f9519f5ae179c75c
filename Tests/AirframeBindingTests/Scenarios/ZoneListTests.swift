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

  @Test func initialReplayRendersTheRows() {
    let model = ZoneModel(choices: choices, selectedID: "a")
    let adapter = ZoneAdapter(model: model)
    let list = ListControl<ZoneRow>()
    let binder = Binder()
    adapter.bind(binder, to: list)
    #expect(
      list.rows == [
        ZoneRow(id: "a", text: "Amman", isSelected: true),
        ZoneRow(id: "b", text: "Berlin", isSelected: false),
      ])
    binder.cancel()
  }

  @Test func userSelectionReachesTheModelAndComesBackAsRenderedRows() {
    let model = ZoneModel(choices: choices, selectedID: "a")
    let adapter = ZoneAdapter(model: model)
    let list = ListControl<ZoneRow>()
    let binder = Binder()
    adapter.bind(binder, to: list)
    list.userSelects("b")
    #expect(model.state.value.selectedID == "b")
    #expect(list.rows.map(\.isSelected) == [false, true])
    binder.cancel()
  }

  @Test func unknownIdIsRejectedAndNothingIsRendered() {
    let model = ZoneModel(choices: choices, selectedID: "a")
    let adapter = ZoneAdapter(model: model)
    let list = ListControl<ZoneRow>()
    let binder = Binder()
    adapter.bind(binder, to: list)
    let rendersBefore = list.renderCount
    list.userSelects("unknown")
    #expect(model.state.value.selectedID == "a")
    #expect(list.renderCount == rendersBefore)
    binder.cancel()
  }

  @Test func afterCancelNeitherObservationNorInputForwardingWorks() {
    let model = ZoneModel(choices: choices, selectedID: "a")
    let adapter = ZoneAdapter(model: model)
    let list = ListControl<ZoneRow>()
    let binder = Binder()
    adapter.bind(binder, to: list)
    list.userSelects("b")
    binder.cancel()
    let frozen = list.rows
    model.select("a")
    #expect(list.rows == frozen)
    #expect(!list.userSelects("b"))
    #expect(model.state.value.selectedID == "a")
  }
}
