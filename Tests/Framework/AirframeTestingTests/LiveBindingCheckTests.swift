import AirframeBinding
import AirframeTesting
import Testing

@Suite(.noLiveBindings)
@MainActor
struct LiveBindingCheckTests {
  @Test func theCheckPassesWhenEverythingWasCancelled() async {
    let source = StateSource(0)
    await LiveBindingCheck.run("clean") {
      let recorder = ValueRecorder(source)
      source.set(1)
      recorder.cancel()
    }
    #expect(source.observerCount == 0)
  }

  @Test func theCheckFailsWhenABindingIsLeftLive() async {
    let source = StateSource(0)
    var leaked: Lifetime?
    await withKnownIssue {
      await LiveBindingCheck.run("leaky") {
        leaked = source.observe { _ in }
      }
    } matching: { issue in
      issue.description.contains("1 binding(s) still live")
    }
    #expect(leaked?.isCancelled == false)
    leaked?.cancel()
  }

  @Test func theCheckFailsWhenARenderEmittedInput() async {
    let slot = InputSlot<Int>()
    await withKnownIssue {
      await LiveBindingCheck.run("echo") {
        BindingLedger.current?.echoPolicy = .count
        let token = slot.install { _ in }
        Rendering.perform { slot.send(1) }
        token.cancel()
      }
    } matching: { issue in
      issue.description.contains("1 input(s) sent while rendering")
    }
  }

  @Test func lifetimesReleasedOffTheMainActorAreCountedOnceTheirDeinitRuns() async {
    let ledger = BindingLedger(name: "off-main")
    await ledger.withCurrent {
      let source = StateSource(0)
      let lifetime = source.observe { _ in }
      // Hand the last reference to a task that drops it off the main actor.
      await Task.detached { _ = lifetime }.value
    }
    await LiveBindingCheck.verify(ledger)
    #expect(ledger.liveCount == 0)
  }
}
