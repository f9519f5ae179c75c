// Two binders that share one control's input slot.

import AirframeBinding
import AirframeTesting
import Testing

@Suite(.noLiveBindings)
@MainActor
struct SharedSlotTests {
  @Test func theSecondBinderReplacesTheFirstVisiblyAndCancellingTheFirstKeepsTheSecond() {
    let list = ListControl<String>()
    let firstRows = StateSource(["a"])
    let secondRows = StateSource(["b"])
    var firstSelections: [String] = []
    var secondSelections: [String] = []
    let first = Binder()
    let second = Binder()
    first.bind { connect in
      connect.render(firstRows) { list.render($0) }
      connect.forward(list.selection) { firstSelections.append($0) }
    }
    second.bind { connect in
      connect.render(secondRows) { list.render($0) }
      connect.forward(list.selection) { secondSelections.append($0) }
    }
    #expect(list.selection.replacementCount == 1)

    first.cancel()
    list.userSelects("b")
    #expect(firstSelections.isEmpty)
    #expect(secondSelections == ["b"])
    #expect(list.selection.isOccupied)

    // The first binder's render direction was its own and ended with it.
    firstRows.set(["a2"])
    #expect(list.rows == ["b"])
    second.cancel()
    #expect(!list.selection.isOccupied)
  }
}
