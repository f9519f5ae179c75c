import AirframeBinding
import AirframeTesting
import Testing

@Suite(.noLiveBindings)
@MainActor
struct BinderTests {
  @Test func bindRendersTheCurrentValueAndEachChange() {
    let title = StateSource("a")
    let label = LabelControl()
    let binder = Binder()
    binder.bind { connect in
      connect.render(title) { label.render($0) }
    }
    #expect(label.text == "a")
    title.set("b")
    #expect(label.text == "b")
    #expect(binder.isBound)
    binder.cancel()
  }

  @Test func cancelStopsBothDirections() {
    let title = StateSource("a")
    let field = TextFieldControl()
    let binder = Binder()
    binder.bind { connect in
      connect.render(title) { field.render($0) }
      connect.forward(field.edits) { title.set($0) }
    }
    binder.cancel()
    #expect(!binder.isBound)
    title.set("model")
    #expect(field.text == "a")
    #expect(!field.userTypes("user"))
    #expect(title.value == "model")
  }

  @Test func releasingTheBinderCancels() {
    let title = StateSource("a")
    let field = TextFieldControl()
    var binder: Binder? = Binder()
    binder?.bind { connect in
      connect.render(title) { field.render($0) }
      connect.forward(field.edits) { title.set($0) }
    }
    binder = nil
    title.set("b")
    #expect(field.text == "a")
    #expect(!field.edits.isOccupied)
    #expect(title.observerCount == 0)
  }

  @Test func rebindingCancelsTheOldConnectionsBeforeInstallingTheNewOnes() {
    let first = StateSource("first")
    let second = StateSource("second")
    let field = TextFieldControl()
    let binder = Binder()
    binder.bind { connect in
      connect.render(first) { field.render($0) }
      connect.forward(field.edits) { first.set($0) }
    }
    var oldObserversWhileConnecting: Int?
    binder.bind { connect in
      oldObserversWhileConnecting = first.observerCount
      connect.render(second) { field.render($0) }
      connect.forward(field.edits) { second.set($0) }
    }
    #expect(oldObserversWhileConnecting == 0)
    #expect(field.edits.replacementCount == 0)
    #expect(field.text == "second")
    first.set("changed first")
    #expect(field.text == "second")
    binder.cancel()
  }

  @Test func ownedLifetimesEndWithTheBinding() {
    let events = EventChannel<Int>()
    let binder = Binder()
    var received: [Int] = []
    binder.bind { connect in
      connect.own(events.observe { received.append($0) })
    }
    events.send(1)
    binder.cancel()
    events.send(2)
    #expect(received == [1])
  }

  @Test func aDialogPerOutcomeClosesWhenItIsAnsweredElsewhere() {
    // One window's binder shows a dialog per pending outcome and closes one that is no
    // longer pending; the answer comes from somewhere else.
    let outcomes = DurableOutcomes<Confirmation>()
    outcomes.post(Confirmation(id: 1, message: "Delete?"))
    var dialogs: Set<Int> = []
    let binder = Binder()
    binder.bind { connect in
      connect.render(outcomes.readOnly) { dialogs.insert($0.id) }
      connect.render(pending: outcomes.readOnly) { pending in
        dialogs = dialogs.filter { id in pending.contains { $0.id == id } }
      }
    }
    #expect(dialogs == [1])
    outcomes.post(Confirmation(id: 2, message: "Delete more?"))
    #expect(dialogs == [1, 2])
    outcomes.acknowledge(1)
    #expect(dialogs == [2])
    binder.cancel()
    outcomes.acknowledge(2)
    #expect(dialogs == [2], "a cancelled binder renders nothing more")
    #expect(outcomes.observerCount == 0)
  }

  @Test func aControlThatEmitsWhileRenderingIsCaughtAndCounted() async {
    let title = StateSource("a")
    let field = TextFieldControl()
    field.reportsProgrammaticChanges = true
    var intents: [String] = []
    let ledger = BindingLedger(name: "leaky control", echoPolicy: .count)
    await ledger.withCurrent {
      let binder = Binder()
      binder.bind { connect in
        connect.forward(field.edits) { intents.append($0) }
        connect.render(title) { field.render($0) }
      }
      title.set("b")
      binder.cancel()
    }
    #expect(intents.isEmpty)
    #expect(field.edits.echoCount == 2)
    #expect(ledger.echoCount == 2)
    #expect(ledger.liveCount == 0)
  }
}
