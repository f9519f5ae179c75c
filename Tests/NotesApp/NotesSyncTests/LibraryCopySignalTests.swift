// Copies of one library file share its device id; each program's pushes signal with a
// sender of its own, so each copy hears the other's pushes and neither hears its own. A
// signal of an older release (no sender) from the device is still taken as the device's
// own, as that release's listeners took it. The app's sync service signals every push
// with the sender its listener ignores.

import Airframe
import AirframeTesting
import Foundation
import NotesServer
import NotesTestSupport
import Testing

@testable import NotesSync

@Suite(.serialized, .sharedPostgres, .noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct LibraryCopySignalTests {
  @Test func aCopyOfALibraryHearsTheOriginalsPushesAndNeitherHearsItsOwn() async throws {
    try await withDevices(["original"]) { devices, fixture in
      try await copiesHearEachOther(devices[0], fixture)
    }
  }

  @Test func aServicesPushesSignalWithItsOwnSender() async throws {
    try await withDevices(["device"]) { devices, fixture in
      try await serviceSignalsWithItsSender(devices[0], fixture)
    }
  }

  /// The app's listener ignores its service's sender (`NotesLibrary`), so every push the
  /// service makes must carry it.
  func serviceSignalsWithItsSender(_ device: SyncDevice, _ fixture: SyncFixture) async throws {
    let url = fixture.accountURL
    let listener = try await onThreadOfItsOwn {
      let server = try SyncServer(url: url)
      defer { server.close() }
      let connection = try PostgresConnection(url: url)
      try connection.listen(server.account.channel)
      return UncheckedConnection(connection: connection)
    }
    defer { listener.connection.close() }
    let service = ServerSyncService(libraryPath: device.path, serverURL: url)
    for title in ["Inbox", "Desk"] {
      try device.createNotebook(title)
      _ = try await service.sync { _ in }
      let signals = try await onThreadOfItsOwn {
        try listener.connection.notifications(waitingUpTo: .seconds(30)).map(\.payload)
      }
      #expect(signals.count == 1, "\(title): \(signals)")
      for payload in signals {
        let signal = PushSignal(payload: payload)
        #expect(signal?.sender == service.sender, "\(payload)")
        #expect(signal?.device == device.engine.deviceID, "\(payload)")
      }
    }
  }

  func copiesHearEachOther(_ original: SyncDevice, _ fixture: SyncFixture) async throws {
    try original.createNotebook("Inbox")
    try await original.sync()
    let copy = try await original.copy(as: "copy")
    defer { copy.close() }
    #expect(copy.engine.deviceID == original.engine.deviceID)
    #expect(copy.engine.sender != original.engine.sender)

    let heardByOriginal = Recorded<Void>()
    let heardByCopy = Recorded<Void>()
    let listeners = [(original, heardByOriginal), (copy, heardByCopy)].map { device, heard in
      ServerSignals(
        url: device.serverURL, device: device.engine.deviceID, sender: device.engine.sender
      ) { heard.record(()) }
    }
    let statuses = listeners.map { listener in
      let recorded = Recorded<ServerSignals.Status>()
      return (recorded, listener.status.observe { recorded.record($0) })
    }
    defer {
      for listener in listeners { listener.stop() }
      for (_, observing) in statuses { observing.cancel() }
    }
    for listener in listeners { listener.start() }
    for (recorded, _) in statuses {
      #expect(await recorded.reach("the listener listens") { $0.last == .listening })
    }

    // The original pushes: the copy hears it; then the copy pulls and pushes: the original
    // hears that. Each heard exactly one signal: its own push's was ignored.
    try original.createNote("From the original", in: "Inbox")
    try await original.sync()
    #expect(await heardByCopy.reach("the copy hears the original's push") { $0.count == 1 })
    try await copy.sync()
    #expect(copy.note(titled: "From the original") != nil)
    try copy.createNote("From the copy", in: "Inbox")
    try await copy.sync()
    #expect(await heardByOriginal.reach("the original hears the copy's push") { $0.count == 1 })
    try await original.sync()
    #expect(original.note(titled: "From the copy") != nil)
    #expect(heardByOriginal.values.count == 1)
    #expect(heardByCopy.values.count == 1)

    // An older release's signal from the device (no sender), then another device's: each
    // listener hears only the second.
    let (url, device) = (fixture.accountURL, original.engine.deviceID)
    try await onThreadOfItsOwn {
      let server = try SyncServer(url: url)
      let channel = server.account.channel
      server.close()
      let connection = try PostgresConnection(url: url)
      defer { connection.close() }
      let older = PushSignal(head: 1, sender: nil, device: device)
      let another = PushSignal(head: 2, sender: PushSignal.newSender(), device: "elsewhere")
      for signal in [older, another] {
        try connection.execute("SELECT pg_notify($1, $2)", [channel, signal.payload])
      }
    }
    #expect(await heardByOriginal.reach("the original hears another device") { $0.count == 2 })
    #expect(await heardByCopy.reach("the copy hears another device") { $0.count == 2 })
    #expect(heardByOriginal.values.count == 2)
    #expect(heardByCopy.values.count == 2)
  }
}

/// A connection handed from one thread to the next, used by one at a time.
struct UncheckedConnection: @unchecked Sendable {
  let connection: PostgresConnection
}
