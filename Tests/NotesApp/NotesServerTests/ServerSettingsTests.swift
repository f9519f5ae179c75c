// A test's throwaway server started with settings of its own: the server takes them (a
// value with a quote in it too), and a name that could smuggle more onto the server's
// command line is refused before anything starts.

import Foundation
import NotesTestSupport
import Testing

@Suite(.serialized)
struct ServerSettingsTests {
  @Test func aServerStartsWithTheSettingsATestGives() async throws {
    let server = try await TemporaryPostgres.started(
      settings: ["max_connections": "250", "cluster_name": "it's a test"])
    do {
      let shown = try await onThreadOfItsOwn {
        try server.psql("SHOW max_connections") + server.psql("SHOW cluster_name")
      }
      #expect(shown == "250\nit's a test\n")
    } catch {
      await server.stopped()
      throw error
    }
    await server.stopped()
  }

  @Test func aSettingNameThatIsNotAPlainNameIsRefused() async throws {
    for name in ["", "max_connections=5 -c port", "shared buffers", "ünicode"] {
      await #expect(throws: TemporaryPostgres.StartFailure.self, "\(name)") {
        let server = try await TemporaryPostgres.started(settings: [name: "1"])
        await server.stopped()
      }
    }
  }
}
