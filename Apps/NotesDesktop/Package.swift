// swift-tools-version: 6.2
import PackageDescription

// The desktop window of Notes, on GTK 4. A package of its own, so that the framework and
// the root package never need GTK: the root package builds and tests on a machine without
// it, and an app that depends on Airframe never sees it.
/// The root package's settings: Swift 6 mode and explicit imports and existentials.
///
/// A manifest cannot read another, so the list is repeated; `.ci/check-manifests` fails
/// when it differs from the root's.
let strictSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "NotesDesktop",
  products: [
    .executable(name: "notes-desktop", targets: ["NotesDesktop"]),
    .executable(name: "notes-desktop-bench", targets: ["NotesDesktopBench"]),
  ],
  dependencies: [
    .package(name: "Airframe", path: "../..")
  ],
  targets: [
    .systemLibrary(
      name: "CGtk",
      pkgConfig: "gtk4",
      providers: [.apt(["libgtk-4-dev"])]
    ),
    // The window, its commands, dialogs and list models: everything but the program's
    // start, so the program and its benchmark open the same window.
    .target(
      name: "NotesDesktopWindow",
      dependencies: [
        "CGtk",
        .product(name: "AirframeBinding", package: "Airframe"),
        .product(name: "Airframe", package: "Airframe"),
        .product(name: "NotesReferenceApp", package: "Airframe"),
      ],
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "NotesDesktop",
      dependencies: [
        "NotesDesktopWindow",
        .product(name: "AirframeBinding", package: "Airframe"),
        .product(name: "NotesReferenceApp", package: "Airframe"),
      ],
      swiftSettings: strictSettings
    ),
    // The window's figures (first window, keystroke to every widget, the main-queue
    // bridge) on a 100,000-note library, in a display of its own.
    .executableTarget(
      name: "NotesDesktopBench",
      dependencies: [
        "CGtk", "NotesDesktopWindow",
        .product(name: "AirframeBinding", package: "Airframe"),
        .product(name: "Airframe", package: "Airframe"),
        .product(name: "NotesReferenceApp", package: "Airframe"),
      ],
      swiftSettings: strictSettings
    ),
    // Drives the built window in a private X server (Xvfb) with real input events
    // (xdotool) and reads it back through AT-SPI on a private D-Bus, as assistive
    // technology does.
    .testTarget(
      name: "NotesDesktopTests",
      dependencies: [
        "CGtk", "NotesDesktopWindow",
        // The terminal app, which the tests run in tmux beside the window.
        .product(name: "notes", package: "Airframe"),
        .product(name: "Airframe", package: "Airframe"),
        .product(name: "AirframeTesting", package: "Airframe"),
        .product(name: "NotesReferenceApp", package: "Airframe"),
        .product(name: "NotesTestSupport", package: "Airframe"),
      ],
      exclude: ["Support/accessible-tree.py"],
      swiftSettings: strictSettings
    ),
  ]
)
