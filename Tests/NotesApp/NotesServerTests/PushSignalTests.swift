// PushSignal's payload: written and read back; an older release's payload read without a
// sender; anything else refused; and whose signal is whose — the sender decides between
// copies of one library (one device id), the device for an older release's signal.

import NotesServer
import Testing

struct PushSignalTests {
  static let device = "0b3e6a51-3f29-4d5e-9a47-1f7f0c2d9e11"
  static let sender = "5c1d2e3f-4a5b-4c6d-8e7f-901234567890"

  @Test func aPayloadReadsBackAsTheSignalThatWroteIt() {
    let signal = PushSignal(head: 42, sender: Self.sender, device: Self.device)
    #expect(signal.payload == "42 \(Self.sender) \(Self.device)")
    #expect(PushSignal(payload: signal.payload) == signal)
  }

  @Test func anOlderReleasesPayloadHasNoSender() {
    let signal = PushSignal(payload: "7 \(Self.device)")
    #expect(signal == PushSignal(head: 7, sender: nil, device: Self.device))
    #expect(signal?.payload == "7 \(Self.device)")
  }

  @Test(arguments: [
    "", "42", "x \(device)", "42  \(device)", "42 \(sender) \(device) extra",
    "42 \(sender) \(device) ",
  ])
  func anythingElseIsNotASignal(payload: String) {
    #expect(PushSignal(payload: payload) == nil)
  }

  @Test func aSignalIsOnlyItsOwnSendersOfItsOwnDevice() {
    let signal = PushSignal(head: 3, sender: Self.sender, device: Self.device)
    #expect(signal.isSent(by: Self.sender, device: Self.device))
    // A copy of the library: the same device id, another program's sender.
    #expect(!signal.isSent(by: PushSignal.newSender(), device: Self.device))
    #expect(!signal.isSent(by: Self.sender, device: "another-device"))
  }

  @Test func anOlderReleasesSignalIsEverySyncOfItsDevice() {
    let signal = PushSignal(head: 3, sender: nil, device: Self.device)
    #expect(signal.isSent(by: Self.sender, device: Self.device))
    #expect(signal.isSent(by: PushSignal.newSender(), device: Self.device))
    #expect(!signal.isSent(by: Self.sender, device: "another-device"))
  }

  @Test func newSendersAreLowerCaseUUIDsThatDiffer() {
    let first = PushSignal.newSender()
    #expect(first.count == 36 && first == first.lowercased())
    #expect(first != PushSignal.newSender())
  }
}
