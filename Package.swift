// swift-tools-version: 6.2
import PackageDescription

/// Settings every target shares.
///
/// Swift 6 language mode (complete concurrency checking is part of it) plus the upcoming
/// features that make imports and existentials explicit. They are applied to every Swift
/// target in one loop at the end of this file, so a new target cannot forget them.
/// `Apps/NotesDesktop/Package.swift` repeats this list; `.ci/check-manifests` fails when
/// the two differ.
let strictSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The three shelves of the tree, and which targets stand on each.
///
/// The framework is what an app adopts; the Notes app is the reference app built only on
/// it; the tools measure and test both. A target's sources are in
/// `Sources/<shelf>/<target>` and a test target's in `Tests/<shelf>/<target>`; the loop at
/// the end of this file sets each target's path from this table, so a target missing
/// from it stops the manifest.
let shelves: [(folder: String, targets: [String])] = [
  (
    "Framework",
    [
      "AirframeBinding", "Airframe", "AirframeTesting",
      "AirframeBindingTests", "AirframeTests", "AirframeTestingTests",
    ]
  ),
  (
    "NotesApp",
    [
      "NotesCore", "NotesFiles", "NotesStorage", "NotesServer", "NotesSync", "NotesPresentation",
      "NotesHost", "NotesTerminalUI", "NotesCommandLine", "Notes", "CSQLite", "CPostgres",
      "CNcurses",
      "NotesCoreTests", "NotesStorageTests", "NotesServerTests", "NotesSyncTests",
      "NotesPresentationTests", "NotesHostTests", "NotesTerminalUITests",
      "NotesCommandLineTests", "NotesEndToEndTests",
    ]
  ),
  // The seeds' worked exercises as programs to run and read, on the framework alone.
  ("Examples", ["ZoneCatalogExample", "ReconnectExample"]),
  (
    "Tools",
    [
      "AirframeBench", "NotesFixtures", "NotesCrashWriter", "NotesLoadDevice", "CFaultVFS",
      "NotesTestSupport",
    ]
  ),
]

let package = Package(
  name: "Airframe",
  // The lowest releases that ship Observation. Nothing in the framework modules may use an
  // API newer than these without an `@available` or `#if` guard (`.ci/check-availability`).
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
  products: [
    // The framework: what an app that adopts Airframe depends on.
    .library(name: "AirframeBinding", targets: ["AirframeBinding"]),
    .library(name: "Airframe", targets: ["Airframe"]),
    .library(name: "AirframeTesting", targets: ["AirframeTesting"]),
    // The reference app's modules, declared as products only because the desktop window
    // (Apps/NotesDesktop, a package of its own so that this one never needs GTK) is built
    // on them; no app that adopts Airframe has a use for them.
    .library(
      name: "NotesReferenceApp",
      targets: ["NotesCore", "NotesFiles", "NotesStorage", "NotesPresentation", "NotesHost"]
    ),
    // What the reference app's tests share (a throwaway PostgreSQL server per suite, folders,
    // programs run with posix_spawn); the desktop window's tests use it too.
    .library(name: "NotesTestSupport", targets: ["NotesTestSupport"]),
    // The programs: the app itself, the benchmark and the two the tests run.
    .executable(name: "notes", targets: ["Notes"]),
    .executable(name: "airframe-bench", targets: ["AirframeBench"]),
    .executable(name: "notes-crash-writer", targets: ["NotesCrashWriter"]),
    .executable(name: "notes-load-device", targets: ["NotesLoadDevice"]),
    // The framework's worked exercises, each a program that checks its own promises.
    .executable(name: "example-zone-catalog", targets: ["ZoneCatalogExample"]),
    .executable(name: "example-reconnect", targets: ["ReconnectExample"]),
  ],
  targets: [
    .target(name: "AirframeBinding"),
    .executableTarget(name: "ZoneCatalogExample", dependencies: ["AirframeBinding"]),
    .executableTarget(name: "ReconnectExample", dependencies: ["AirframeBinding"]),
    .target(name: "Airframe", dependencies: ["AirframeBinding"]),
    .target(
      name: "AirframeTesting",
      dependencies: ["AirframeBinding", "Airframe"]
    ),
    .target(name: "NotesCore", dependencies: ["Airframe"]),
    // The library's files: the JSON export, Markdown folders, their front matter and names.
    .target(name: "NotesFiles", dependencies: ["Airframe", "NotesCore"]),
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
    .target(name: "NotesPresentation", dependencies: ["Airframe", "NotesCore", "NotesFiles"]),
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
      dependencies: ["Airframe", "NotesCore", "NotesFiles", "NotesPresentation"]
    ),
    .target(
      name: "NotesCommandLine",
      dependencies: [
        "Airframe", "NotesCore", "NotesFiles", "NotesStorage", "NotesPresentation", "NotesServer",
        "NotesSync", "NotesHost",
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
        "Airframe", "NotesStorage", "NotesCore", "AirframeTesting", "CFaultVFS", "NotesTestSupport",
      ]
    ),
    .testTarget(
      name: "NotesHostTests",
      dependencies: [
        "Airframe", "NotesHost", "NotesPresentation", "NotesStorage", "NotesCore",
        "AirframeTesting", "NotesTestSupport",
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
        "Airframe", "NotesPresentation", "NotesCore", "NotesFiles", "AirframeTesting",
        "NotesTestSupport",
      ]
    ),
    .testTarget(
      name: "NotesTerminalUITests",
      dependencies: [
        "Airframe", "NotesTerminalUI", "NotesPresentation", "NotesCore", "NotesStorage",
        "AirframeTesting", "CFaultVFS", "NotesTestSupport",
      ]
    ),
    .testTarget(
      name: "NotesCommandLineTests",
      dependencies: [
        "Airframe", "NotesCommandLine", "NotesCore", "NotesFiles", "NotesStorage",
        "AirframeTesting", "NotesTestSupport",
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
      name: "NotesTestSupport", dependencies: ["NotesFixtures"]),
    .testTarget(
      name: "AirframeTestingTests",
      dependencies: ["AirframeBinding", "Airframe", "AirframeTesting"]
    ),
  ]
)

for target in package.targets {
  guard let shelf = shelves.first(where: { $0.targets.contains(target.name) }) else {
    fatalError("\(target.name) stands on no shelf: add it to `shelves`")
  }
  // The tests' shared support is a library target, but it lives beside the tests it serves.
  let root = target.isTest || target.name == "NotesTestSupport" ? "Tests" : "Sources"
  target.path = "\(root)/\(shelf.folder)/\(target.name)"
  if target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
  }
}

// The framework alone, for a machine that has none of the app's system libraries (the
// Apple-platform workflow, .github/workflows/apple.yml): AIRFRAME_FRAMEWORK_ONLY=1 keeps the
// framework and examples shelves' targets and products and drops the rest. `.ci/run` builds
// it so on every run, which also proves the framework and its examples depend on nothing of
// the app's.
if Context.environment["AIRFRAME_FRAMEWORK_ONLY"] != nil {
  let framework = Set(
    shelves.filter { ["Framework", "Examples"].contains($0.folder) }.flatMap(\.targets))
  package.targets.removeAll { !framework.contains($0.name) }
  package.products.removeAll { !framework.contains($0.name) && !$0.name.hasPrefix("example-") }
}
