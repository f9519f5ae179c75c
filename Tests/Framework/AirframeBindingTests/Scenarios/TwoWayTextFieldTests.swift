// A two-way text field whose model normalizes (trims) what the user types.

import AirframeBinding
import AirframeTesting
import Foundation
import Testing

@Suite(.noLiveBindings)
@MainActor
struct TwoWayTextFieldTests {
  /// Owns a title and decides what is legal: titles are trimmed, empty ones rejected.
  @MainActor
  final class TitleModel {
    let title: StateSource<String>
    private(set) var renameRequests = 0
    init(_ title: String) { self.title = StateSource(title) }

    func rename(_ proposed: String) {
      renameRequests += 1
      let trimmed = proposed.trimmingCharacters(in: .whitespaces)
      guard !trimmed.isEmpty else { return }
      title.set(trimmed)
    }
  }

  func bind(_ field: TextFieldControl, to model: TitleModel, with binder: Binder) {
    binder.bind { connect in
      connect.render(model.title) { field.render($0) }
      connect.forward(field.edits) { model.rename($0) }
    }
  }

  @Test func programmaticUpdateThenUserEditWithoutALoop() {
    let model = TitleModel("Notes")
    let field = TextFieldControl()
    let binder = Binder()
    bind(field, to: model, with: binder)

    model.title.set("Renamed elsewhere")
    #expect(field.text == "Renamed elsewhere")
    #expect(model.renameRequests == 0)

    field.userTypes("  Groceries  ")
    #expect(model.renameRequests == 1)
    #expect(model.title.value == "Groceries")
    #expect(field.text == "Groceries")
    #expect(field.renderCount == 3)
    binder.cancel()
  }

  @Test func typingTheNormalizedFormAgainRendersNothing() {
    let model = TitleModel("Notes")
    let field = TextFieldControl()
    let binder = Binder()
    bind(field, to: model, with: binder)
    field.userTypes(" Notes ")
    #expect(model.renameRequests == 1)
    #expect(field.renderCount == 1)
    // The field shows what the user typed until the model says otherwise; the model's
    // value did not change, so nothing is re-rendered and nothing loops.
    #expect(field.text == " Notes ")
    binder.cancel()
  }

  @Test func rejectedInputLeavesTheModelUnchanged() {
    let model = TitleModel("Notes")
    let field = TextFieldControl()
    let binder = Binder()
    bind(field, to: model, with: binder)
    field.userTypes("   ")
    #expect(model.title.value == "Notes")
    binder.cancel()
  }

  @Test func aControlThatReportsProgrammaticChangesCannotLoop() async {
    let model = TitleModel("Notes")
    let field = TextFieldControl()
    field.reportsProgrammaticChanges = true
    let ledger = BindingLedger(name: "leaky field", echoPolicy: .count)
    await ledger.withCurrent {
      let binder = Binder()
      bind(field, to: model, with: binder)
      field.userTypes("  Groceries ")
      binder.cancel()
    }
    // One user edit reached the model; the two renders' echoes were dropped.
    #expect(model.renameRequests == 1)
    #expect(model.title.value == "Groceries")
    #expect(ledger.echoCount == 2)
    #expect(ledger.liveCount == 0)
  }

  /// Normalizes into one of two forms, alternating with every edit it receives: a model
  /// that would ping-pong forever with a control that echoes renders as edits.
  @MainActor
  final class AlternatingModel {
    let title = StateSource("abc")
    private(set) var renameRequests = 0
    func rename(_ proposed: String) {
      renameRequests += 1
      title.set(renameRequests.isMultiple(of: 2) ? proposed.lowercased() : proposed.uppercased())
    }
  }

  @Test func anAlternatingNormalizationSettlesAfterOneRenderPerEdit() async {
    let model = AlternatingModel()
    let field = TextFieldControl()
    field.reportsProgrammaticChanges = true
    let ledger = BindingLedger(name: "alternating", echoPolicy: .count)
    await ledger.withCurrent {
      let binder = Binder()
      binder.bind { connect in
        connect.render(model.title) { field.render($0) }
        connect.forward(field.edits) { model.rename($0) }
      }
      field.userTypes("Notes")
      field.userTypes("Notes")
      binder.cancel()
    }
    // Each user edit reached the model once; the render it caused echoed and was dropped,
    // so the two forms never chase each other.
    #expect(model.renameRequests == 2)
    #expect(model.title.value == "notes")
    #expect(field.text == "notes")
    #expect(field.renderCount == 3)
    #expect(ledger.echoCount == 3)
    #expect(ledger.liveCount == 0)
  }
}
