// swift-tools-version: 6.2
import PackageDescription

/// Settings every target shares: Swift 6 language mode (complete concurrency checking is
/// part of it) plus the upcoming features that make imports and existentials explicit.
let strictSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "Airframe",
  products: [
    .library(name: "AirframeBinding", targets: ["AirframeBinding"]),
    .library(name: "Airframe", targets: ["Airframe"]),
    .library(name: "AirframeTesting", targets: ["AirframeTesting"]),
    .library(name: "NotesCore", targets: ["NotesCore"]),
    .library(name: "NotesStorage", targets: ["NotesStorage"]),
    .library(name: "NotesApp", targets: ["NotesApp"]),
    .executable(name: "notes", targets: ["Notes"]),
    .executable(name: "airframe-bench", targets: ["AirframeBench"]),
    .executable(name: "notes-crash-writer", targets: ["NotesCrashWriter"]),
  ],
  targets: [
    .target(name: "AirframeBinding", swiftSettings: strictSettings),
    .target(name: "Airframe", dependencies: ["AirframeBinding"], swiftSettings: strictSettings),
    .target(
      name: "AirframeTesting",
      dependencies: ["AirframeBinding", "Airframe"],
      swiftSettings: strictSettings
    ),
    .target(name: "NotesCore", dependencies: ["Airframe"], swiftSettings: strictSettings),
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    .target(
      name: "NotesStorage",
      dependencies: ["NotesCore", "CSQLite"],
      swiftSettings: strictSettings
    ),
    // Test support: an SQLite VFS that fails chosen writes, syncs and truncates.
    .target(name: "CFaultVFS", dependencies: ["CSQLite"]),
    .target(
      name: "NotesApp",
      dependencies: ["Airframe", "NotesCore"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "NotesCommandLine",
      dependencies: ["NotesCore", "NotesStorage"],
      swiftSettings: strictSettings
    ),
    .systemLibrary(
      name: "CNcurses",
      providers: [.apt(["libncurses-dev"])]
    ),
    .executableTarget(
      name: "Notes",
      dependencies: ["NotesApp", "NotesCommandLine", "NotesCore", "NotesStorage", "CNcurses"],
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "NotesCrashWriter",
      dependencies: ["Airframe", "NotesCore", "NotesStorage"],
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "AirframeBench",
      dependencies: [
        "AirframeBinding", "Airframe", "NotesCore", "NotesStorage", "NotesApp", "CSQLite",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "AirframeBindingTests",
      dependencies: ["AirframeBinding", "AirframeTesting"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "AirframeTests",
      dependencies: ["Airframe", "AirframeTesting"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "NotesCoreTests",
      dependencies: ["NotesCore", "AirframeTesting"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "NotesStorageTests",
      dependencies: ["NotesStorage", "NotesCore", "NotesApp", "AirframeTesting", "CFaultVFS"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "NotesAppTests",
      dependencies: ["NotesApp", "NotesCore", "AirframeTesting"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "NotesCommandLineTests",
      dependencies: ["NotesCommandLine", "NotesCore", "NotesStorage", "AirframeTesting"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "NotesTerminalTests",
      dependencies: ["NotesCore", "NotesStorage", "AirframeTesting"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "AirframeTestingTests",
      dependencies: ["AirframeBinding", "AirframeTesting"],
      swiftSettings: strictSettings
    ),
  ]
)
