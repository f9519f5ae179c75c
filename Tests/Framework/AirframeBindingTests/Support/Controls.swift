// Test doubles for view-layer controls: they render silently and report user input
// through input slots, as a real control would.

import AirframeBinding

/// A list control: shows rows, reports the row the user selects.
@MainActor
final class ListControl<Row> {
  private(set) var rows: [Row] = []
  private(set) var renderCount = 0
  let selection = InputSlot<String>()

  func render(_ rows: [Row]) {
    self.rows = rows
    renderCount += 1
  }

  /// What a click on a row does.
  @discardableResult
  func userSelects(_ id: String) -> Bool { selection.send(id) }
}

/// A text field: shows text, reports each edit the user commits.
@MainActor
final class TextFieldControl {
  private(set) var text = ""
  private(set) var renderCount = 0
  let edits = InputSlot<String>()
  /// A badly written control reports programmatic changes as edits too.
  var reportsProgrammaticChanges = false

  func render(_ text: String) {
    self.text = text
    renderCount += 1
    if reportsProgrammaticChanges { edits.send(text) }
  }

  @discardableResult
  func userTypes(_ text: String) -> Bool {
    self.text = text
    return edits.send(text)
  }
}

/// A label: shows text, reports nothing.
@MainActor
final class LabelControl {
  private(set) var text = ""
  private(set) var renderCount = 0

  func render(_ text: String) {
    self.text = text
    renderCount += 1
  }
}
