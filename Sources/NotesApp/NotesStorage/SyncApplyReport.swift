// SyncApplyReport: what applying one pulled batch did, for the sync engine and the user.

public import NotesCore

/// What applying one pulled batch did.
public struct SyncApplyReport: Equatable, Sendable {
  /// How many versions were new to the library (not its own changes coming back).
  public var received = 0
  /// How many entities changed in the library.
  public var applied = 0
  /// How many conflict copies were saved.
  public var conflictCopies = 0
  /// What the user is told (also kept in the library until acknowledged).
  public var notices: [String] = []
  /// Versions that broke the app's rules, kept aside instead of applied.
  public var keptAside: [RefusedVersion] = []

  /// An empty report.
  public init() {}
}
