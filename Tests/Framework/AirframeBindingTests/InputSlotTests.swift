import AirframeBinding
import AirframeTesting
import Testing

@Suite(.noLiveBindings)
@MainActor
struct InputSlotTests {
  @Test func inputReachesTheInstalledHandler() {
    let slot = InputSlot<String>()
    var received: [String] = []
    let token = slot.install { received.append($0) }
    #expect(slot.send("a"))
    #expect(received == ["a"])
    token.cancel()
    #expect(!slot.send("b"))
    #expect(received == ["a"])
    #expect(!slot.isOccupied)
  }

  @Test func inputWithNoHandlerIsDropped() {
    let slot = InputSlot<Int>()
    #expect(!slot.send(1))
  }

  @Test func secondInstallReplacesTheFirstVisibly() {
    let slot = InputSlot<String>()
    var first: [String] = []
    var second: [String] = []
    let firstToken = slot.install { first.append($0) }
    let secondToken = slot.install { second.append($0) }
    #expect(firstToken.isCancelled)
    #expect(!secondToken.isCancelled)
    #expect(slot.replacementCount == 1)
    slot.send("x")
    #expect(first.isEmpty)
    #expect(second == ["x"])
    secondToken.cancel()
  }

  @Test func cancellingAnOlderTokenNeverRemovesANewerHandler() {
    let slot = InputSlot<String>()
    var received: [String] = []
    let older = slot.install { _ in Issue.record("replaced handler called") }
    let newer = slot.install { received.append($0) }
    older.cancel()
    older.cancel()
    slot.send("still here")
    #expect(received == ["still here"])
    #expect(slot.isOccupied)
    newer.cancel()
    #expect(!slot.isOccupied)
  }

  @Test func releasingAnOlderTokenNeverRemovesANewerHandler() {
    let slot = InputSlot<Int>()
    var received: [Int] = []
    var older: Lifetime? = slot.install { _ in }
    _ = older
    let newer = slot.install { received.append($0) }
    older = nil
    slot.send(1)
    #expect(received == [1])
    newer.cancel()
  }

  @Test func inputSentWhileRenderingIsAnEchoDroppedAndCounted() async {
    let slot = InputSlot<String>()
    var received: [String] = []
    let ledger = BindingLedger(name: "echo", echoPolicy: .count)
    await ledger.withCurrent {
      let token = slot.install { received.append($0) }
      let delivered = Rendering.perform { slot.send("echo") }
      #expect(!delivered)
      token.cancel()
    }
    #expect(received.isEmpty)
    #expect(slot.echoCount == 1)
    #expect(ledger.echoCount == 1)
    #expect(!Rendering.isActive)
  }

  @Test func renderingNestsAndEndsEvenWhenTheBodyThrows() {
    #expect(throws: TestFailure.self) {
      try Rendering.perform {
        Rendering.perform { #expect(Rendering.isActive) }
        #expect(Rendering.isActive)
        throw TestFailure(message: "render failed")
      }
    }
    #expect(!Rendering.isActive)
  }
}
