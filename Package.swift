// swift-tools-version: 6.2
import PackageDescription

/// Settings every target shares.
///
/// Swift 6 language mode (complete concurrency checking is part of it) plus the upcoming
/// features that make imports and existentials explicit. They are applied to every Swift target in one loop at the end of this file, so a new
/// target cannot forget them.
let strictSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "Airframe",
  // The lowest releases that ship Observation. Nothing in the framework modules may use an
  // API newer than these without an `@available` or `#if` guard (`.ci/check-availability`).
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
  products: [
    .library(name: "AirframeBinding", targets: ["AirframeBinding"]),
    .library(name: "Airframe", targets: ["Airframe"]),
    .library(name: "AirframeTesting", targets: ["AirframeTesting"]),
    .library(name: "NotesCore", targets: ["NotesCore"]),
    .library(name: "NotesStorage", targets: ["NotesStorage"]),
    .library(name: "NotesPresentation", targets: ["NotesPresentation"]),
    .library(name: "NotesHost", targets: ["NotesHost"]),
    .library(name: "NotesTerminalUI", targets: ["NotesTerminalUI"]),
    .executable(name: "notes", targets: ["Notes"]),
    // What the reference apps' own tests share (a throwaway PostgreSQL server per suite,
    // with NotesFixtures: folders, programs run with posix_spawn): the desktop window's
    // package uses it too. Not part of the framework.
    .library(name: "NotesTestSupport", targets: ["NotesTestSupport"]),
    .executable(name: "airframe-bench", targets: ["AirframeBench"]),
    .executable(name: "notes-crash-writer", targets: ["NotesCrashWriter"]),
    .executable(name: "notes-load-device", targets: ["NotesLoadDevice"]),
  ],
  targets: [
    .target(name: "AirframeBinding"),
    .target(name: "Airframe", dependencies: ["AirframeBinding"]),
    .target(
      name: "AirframeTesting",
      dependencies: ["AirframeBinding", "Airframe"]
    ),
    .target(name: "NotesCore", dependencies: ["Airframe"]),
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    .target(
      name: "NotesStorage",
      dependencies: ["Airframe", "NotesCore", "CSQLite"]
    ),
    // Test support: an SQLite VFS that fails chosen writes, syncs and truncates.
    .target(name: "CFaultVFS", dependencies: ["CSQLite"]),
    // One open library as every presentation sees it: controllers, wiring, gestures.
    .target(name: "NotesPresentation", dependencies: ["Airframe", "NotesCore"]),
    // The one way a program opens a library: database, model, session, watcher, live
    // sync, and the order they close in.
    .target(
      name: "NotesHost",
      dependencies: [
        "Airframe", "NotesCore", "NotesPresentation", "NotesServer", "NotesStorage", "NotesSync",
      ]
    ),
    .target(
      name: "NotesTerminalUI",
      dependencies: ["Airframe", "NotesCore", "NotesPresentation"]
    ),
    .target(
      name: "NotesCommandLine",
      dependencies: [
        "Airframe", "NotesCore", "NotesStorage", "NotesPresentation", "NotesServer", "NotesSync",
        "NotesHost",
      ]
    ),
    // libpq, for the sync server (PostgreSQL).
    .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
    // The sync server's side: a libpq connection and the server's versioned schema.
    .target(name: "NotesServer", dependencies: ["CPostgres", "NotesCore"]),
    // Sync: a library's pending changes pushed to the server, the server's pulled and merged.
    .target(
      name: "NotesSync", dependencies: ["Airframe", "NotesCore", "NotesStorage", "NotesServer"]),
    .systemLibrary(
      name: "CNcurses",
      providers: [.apt(["libncurses-dev"])]
    ),
    .executableTarget(
      name: "Notes",
      dependencies: [
        "Airframe", "NotesTerminalUI", "NotesPresentation", "NotesCommandLine", "NotesCore",
        "NotesHost", "NotesStorage", "CNcurses",
      ]
    ),
    .executableTarget(
      name: "NotesCrashWriter",
      dependencies: ["Airframe", "NotesCore", "NotesStorage"]
    ),
    // One device of the sync load test: a library opened as the app opens it, edited as fast
    // as it can with live sync on.
    .executableTarget(
      name: "NotesLoadDevice",
      dependencies: ["Airframe", "NotesCore", "NotesHost", "NotesPresentation", "NotesStorage"]
    ),
    .executableTarget(
      name: "AirframeBench",
      dependencies: [
        "AirframeBinding", "Airframe", "NotesCore", "NotesStorage", "NotesPresentation",
        "NotesTerminalUI",
        "NotesCommandLine", "NotesServer", "NotesSync", "NotesHost", "CSQLite", "NotesFixtures",
        "AirframeTesting",
      ]
    ),
    .testTarget(
      name: "AirframeBindingTests",
      dependencies: ["AirframeBinding", "AirframeTesting"]
    ),
    .testTarget(
      name: "AirframeTests",
      dependencies: ["Airframe", "AirframeTesting"]
    ),
    .testTarget(
      name: "NotesCoreTests",
      dependencies: ["Airframe", "NotesCore", "AirframeTesting", "NotesTestSupport"]
    ),
    .testTarget(
      name: "NotesStorageTests",
      dependencies: [
        "Airframe", "NotesStorage", "NotesCore", "NotesTerminalUI", "NotesPresentation",
        "NotesHost",
        "AirframeTesting", "CFaultVFS",
        "NotesTestSupport",
      ]
    ),
    .testTarget(
      name: "NotesServerTests",
      dependencies: ["NotesServer", "NotesCore", "AirframeTesting", "NotesTestSupport"]
    ),
    .testTarget(
      name: "NotesSyncTests",
      dependencies: [
        "NotesSync", "NotesServer", "NotesStorage", "NotesCore", "Airframe", "AirframeTesting",
        "NotesTestSupport",
      ]
    ),
    .testTarget(
      name: "NotesPresentationTests",
      dependencies: [
        "Airframe", "NotesPresentation", "NotesCore", "AirframeTesting", "NotesTestSupport",
      ]
    ),
    .testTarget(
      name: "NotesTerminalUITests",
      dependencies: [
        "Airframe", "NotesTerminalUI", "NotesPresentation", "NotesCore", "AirframeTesting",
        "NotesTestSupport",
      ]
    ),
    .testTarget(
      name: "NotesCommandLineTests",
      dependencies: [
        "Airframe", "NotesCommandLine", "NotesCore", "NotesStorage", "AirframeTesting",
        "NotesTestSupport",
      ]
    ),
    .testTarget(
      name: "NotesEndToEndTests",
      dependencies: ["NotesCore", "NotesStorage", "AirframeTesting", "NotesTestSupport"]
    ),
    // The worlds the Notes tests and the benchmark build: temporary folders, a throwaway
    // PostgreSQL, a fault-injecting proxy, running the built programs (posix_spawn, never
    // Foundation.Process), seeded paragraph edits. No test framework's traits.
    .target(
      name: "NotesFixtures", dependencies: ["AirframeBinding", "AirframeTesting", "NotesCore"]
    ),
    // What only the Notes test targets share: a PostgreSQL server per suite (a Swift
    // Testing trait), with NotesFixtures re-exported.
    .target(
      name: "NotesTestSupport", dependencies: ["NotesFixtures"],
      path: "Tests/NotesTestSupport"),
    .testTarget(
      name: "AirframeTestingTests",
      dependencies: ["AirframeBinding", "Airframe", "AirframeTesting"]
    ),
  ]
)

for target in package.targets where target.type != .system {
  target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
