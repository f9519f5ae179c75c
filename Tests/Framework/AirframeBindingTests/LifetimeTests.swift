import AirframeBinding
import AirframeTesting
import Testing

@Suite(.noLiveBindings)
@MainActor
struct LifetimeTests {
  @Test func cancelRunsTheCancelActionOnce() {
    var cancels = 0
    let lifetime = Lifetime { cancels += 1 }
    #expect(!lifetime.isCancelled)
    lifetime.cancel()
    lifetime.cancel()
    #expect(lifetime.isCancelled)
    #expect(cancels == 1)
  }

  @Test func releasingTheLastReferenceCancels() {
    var cancels = 0
    var lifetime: Lifetime? = Lifetime { cancels += 1 }
    _ = lifetime
    lifetime = nil
    #expect(cancels == 1)
  }

  @Test func releasingAfterCancelDoesNotCancelAgain() {
    var cancels = 0
    var lifetime: Lifetime? = Lifetime { cancels += 1 }
    lifetime?.cancel()
    lifetime = nil
    #expect(cancels == 1)
  }

  @Test func releasedObservationStopsDelivering() {
    let source = StateSource(0)
    var seen: [Int] = []
    var lifetime: Lifetime? = source.observe { seen.append($0) }
    _ = lifetime
    source.set(1)
    lifetime = nil
    source.set(2)
    #expect(seen == [0, 1])
    #expect(source.observerCount == 0)
  }

  @Test func bagCancelsEveryLifetimeInInsertionOrder() {
    let bag = LifetimeBag()
    var order: [Int] = []
    for index in 0..<3 {
      Lifetime { order.append(index) }.store(in: bag)
    }
    #expect(bag.liveCount == 3)
    bag.cancelAll()
    #expect(order == [0, 1, 2])
    #expect(bag.liveCount == 0)
  }

  @Test func releasingTheBagCancelsItsLifetimes() {
    let source = StateSource("a")
    var bag: LifetimeBag? = LifetimeBag()
    var seen: [String] = []
    source.observe { seen.append($0) }.store(in: bag!)
    #expect(source.observerCount == 1)
    bag = nil
    source.set("b")
    #expect(seen == ["a"])
    #expect(source.observerCount == 0)
  }

  @Test func bagStaysUsableAfterCancelAll() {
    let bag = LifetimeBag()
    let source = StateSource(0)
    source.observe { _ in }.store(in: bag)
    bag.cancelAll()
    source.observe { _ in }.store(in: bag)
    #expect(bag.liveCount == 1)
    #expect(source.observerCount == 1)
    bag.cancelAll()
  }

  @Test func closedBagCancelsLateInsertions() {
    let bag = LifetimeBag()
    bag.close()
    let source = StateSource(0)
    let late = source.observe { _ in }
    late.store(in: bag)
    #expect(late.isCancelled)
    #expect(source.observerCount == 0)
  }

  @Test func ledgerCountsLifetimesFromCreationToCancel() async {
    let ledger = BindingLedger(name: "inner")
    await ledger.withCurrent {
      let first = Lifetime {}
      let second = Lifetime {}
      #expect(ledger.liveCount == 2)
      first.cancel()
      first.cancel()
      #expect(ledger.liveCount == 1)
      second.cancel()
    }
    #expect(ledger.liveCount == 0)
    #expect(ledger.createdCount == 2)
  }

  @Test func ledgerIsInheritedByTasksStartedInsideTheScope() async {
    let ledger = BindingLedger(name: "inner")
    let lifetime = await ledger.withCurrent {
      await Task { @MainActor in Lifetime {} }.value
    }
    #expect(ledger.liveCount == 1)
    lifetime.cancel()
    #expect(ledger.liveCount == 0)
  }
}

@Suite(.noLiveBindings)
@MainActor
struct BindingGraphTests {
  @Test func theGraphListsEachSourceWithItsOwners() async {
    let ledger = BindingLedger(name: "graph")
    ledger.recordsGraph = true
    await ledger.withCurrent {
      let title = StateSource("Groceries")
      title.label = "note title"
      let toasts = EventChannel<String>()
      toasts.label = "toasts"
      let list = LifetimeBag(label: "NoteListScreen")
      let editor = Binder(label: "EditorScreen")
      title.observe { _ in }.store(in: list)
      title.observe { _ in }.store(in: list)
      editor.bind { connect in connect.render(title) { _ in } }
      let loose = toasts.observe { _ in }
      #expect(
        ledger.graphDescription == """
          note title [String] ← EditorScreen ×1, NoteListScreen ×2
          toasts [String] ← (no owner) ×1
          """)
      list.cancelAll()
      editor.cancel()
      loose.cancel()
      #expect(ledger.graphDescription.isEmpty)
    }
  }

  @Test func nothingIsRecordedUnlessAsked() async {
    let ledger = BindingLedger(name: "quiet")
    await ledger.withCurrent {
      let source = StateSource(1)
      let lifetime = source.observe { _ in }
      #expect(ledger.graphDescription.isEmpty)
      #expect(ledger.liveCount == 1)
      lifetime.cancel()
    }
  }
}
