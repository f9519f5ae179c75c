// The time of the last sync has one writer and one clock: the sync engine records it in
// the library, and the service hands the app's model that same time.

import Airframe
import AirframeTesting
import Foundation
import NotesStorage
import NotesTestSupport
import Testing

@testable import NotesSync

@Suite(.serialized, .sharedPostgres, .noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct LastSyncedTests {
  @Test func theServiceReturnsTheTimeTheEngineRecorded() async throws {
    try await withDevices(["device"]) { devices, fixture in
      let device = devices[0]
      let service = ServerSyncService(libraryPath: device.path, serverURL: fixture.accountURL)
      for title in ["Inbox", "Desk"] {
        try device.createNotebook(title)
        let finished = try await service.sync { _ in }
        let store = try LibrarySyncStore(path: device.path)
        defer { store.close() }
        #expect(try store.lastSynced() == finished, "after creating \(title)")
      }
    }
  }
}
