import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import Testing

@Suite(.noLiveBindings)
struct NotesStateTests {
  @Test func lastAssignedIDCoversEveryEntity() {
    let now = Date(timeIntervalSince1970: 0)
    let state = NotesState(
      notebooks: [Notebook(id: NotebookID(rawValue: 3), title: "Work", created: now)],
      notes: [
        Note(id: NoteID(rawValue: 9), notebookID: NotebookID(rawValue: 3), title: "a", created: now)
      ])
    #expect(state.lastAssignedID == 9)
    #expect(NotesState(lastAssignedID: 20).lastAssignedID == 20)
  }

  @Test func syncStatusKeepsTheLastSyncTime() {
    let date = Date(timeIntervalSince1970: 100)
    #expect(SyncStatus.failed(message: "offline", lastSynced: date).lastSynced == date)
    #expect(SyncStatus.idle(lastSynced: nil).lastSynced == nil)
  }
}
