// The README's first example, kept compiling and true.

import AirframeBinding
import AirframeTesting
import Foundation
import Testing

/// A control: shows text, and reports what the user types through an input slot.
@MainActor final class TitleField {
  private(set) var text = ""
  let edits = InputSlot<String>()
  func show(_ text: String) { self.text = text }  // rendering emits no input
  func userTyped(_ text: String) { edits.send(text) }  // what a key press does
}

@Suite(.noLiveBindings)
@MainActor
struct ReadmeExampleTests {
  @Test func firstBinding() {
    let title = StateSource("Untitled")
    let field = TitleField()
    let binder = Binder()
    binder.bind { connect in
      connect.render(title) { field.show($0) }
      connect.forward(field.edits) { title.set($0.trimmingCharacters(in: .whitespaces)) }
    }
    #expect(field.text == "Untitled")
    field.userTyped("  Groceries ")
    #expect(title.value == "Groceries")
    #expect(field.text == "Groceries")
    binder.cancel()
    field.userTyped("ignored")
    #expect(title.value == "Groceries")
  }
}
