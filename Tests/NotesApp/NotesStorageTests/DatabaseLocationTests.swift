import AirframeTesting
import Foundation
import NotesStorage
import Testing

@Suite(.noLiveBindings)
struct DatabaseLocationTests {
  let home = "/home/ada"

  @Test func anExplicitPathWins() {
    let location = DatabaseLocation.resolve(
      explicitPath: "/tmp/x.sqlite",
      environment: ["AIRFRAME_NOTES_DATABASE": "/env.sqlite", "XDG_DATA_HOME": "/data"],
      homeDirectory: home)
    #expect(location == DatabaseLocation(path: "/tmp/x.sqlite", source: .explicit))
  }

  @Test func theEnvironmentVariableComesNext() {
    let location = DatabaseLocation.resolve(
      explicitPath: nil,
      environment: ["AIRFRAME_NOTES_DATABASE": "/env.sqlite", "XDG_DATA_HOME": "/data"],
      homeDirectory: home)
    #expect(location == DatabaseLocation(path: "/env.sqlite", source: .environment))
  }

  @Test func thenXDGDataHome() {
    let location = DatabaseLocation.resolve(
      explicitPath: "", environment: ["AIRFRAME_NOTES_DATABASE": "", "XDG_DATA_HOME": "/data/"],
      homeDirectory: home)
    #expect(
      location == DatabaseLocation(path: "/data/airframe-notes/notes.sqlite", source: .xdgDataHome))
  }

  @Test func thenTheHomeDirectory() {
    let expected = DatabaseLocation(
      path: "/home/ada/.local/share/airframe-notes/notes.sqlite", source: .homeDirectory)
    #expect(
      DatabaseLocation.resolve(explicitPath: nil, environment: [:], homeDirectory: home) == expected
    )
    // A relative XDG_DATA_HOME is invalid and ignored.
    #expect(
      DatabaseLocation.resolve(
        explicitPath: nil, environment: ["XDG_DATA_HOME": "data"], homeDirectory: home)
        == expected)
  }

  @Test func aLeadingTildeMeansTheHomeDirectory() {
    #expect(
      DatabaseLocation.resolve(explicitPath: "~/n.sqlite", environment: [:], homeDirectory: home)
        .path == "/home/ada/n.sqlite")
    #expect(
      DatabaseLocation.resolve(
        explicitPath: nil, environment: ["AIRFRAME_NOTES_DATABASE": "~/e.sqlite"],
        homeDirectory: home
      ).path == "/home/ada/e.sqlite")
  }

  @Test func describesWhereThePathCameFrom() {
    #expect(
      DatabaseLocation(path: "/e.sqlite", source: .environment).description
        == "/e.sqlite (from AIRFRAME_NOTES_DATABASE)")
  }

  @Test func theDefaultHomeIsTheHOMEVariableWhenItIsAnAbsolutePath() {
    let home = ProcessInfo.processInfo.environment["HOME"]
    if let home, home.hasPrefix("/") {
      #expect(DatabaseLocation.processHomeDirectory == home)
    } else {
      #expect(DatabaseLocation.processHomeDirectory == NSHomeDirectory())
    }
  }
}
