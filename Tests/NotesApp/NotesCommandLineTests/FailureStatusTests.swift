// FailureStatusTests: the exit status and the words of each way the library or an export
// can fail where a test cannot make the disk fail (a full disk, an I/O error): the
// storage's own tests make those errors with a fault VFS; here, what the command line
// answers them with.

import Foundation
import NotesStorage
import Testing

@testable import NotesCommandLine
@testable import NotesFiles

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct FailureStatusTests {
  @Test(arguments: [
    (NotesStorageError.diskFull(path: "/x"), ExitCode.ioError),
    (.ioFailure(path: "/x", reason: "disk I/O error, SQLite code 778"), .ioError),
    (.permissionDenied(path: "/x"), .notFound),
    (.missing(path: "/x"), .notFound),
    (.unwritableLocation(path: "/x", reason: "the file is read-only"), .cannotCreate),
    (.notADatabase(path: "/x"), .failure),
    (.changedWhileRead(path: "/x"), .failure),
  ])
  func aLibraryRefusalEndsWithItsCausesStatus(error: NotesStorageError, code: ExitCode) {
    #expect(CommandFailure(error) == CommandFailure(code, error.description))
    #expect(ExitCode.ioError.rawValue == 74)
  }

  @Test func aSaveThatFailedOnAFullDiskEndsWithStatus74() {
    let saving = CommandFailure(.failure, "Saving failed: The disk is full: …")
    #expect(
      saving.caused(by: .diskFull(path: "/x"))
        == CommandFailure(.ioError, "Saving failed: The disk is full: …"))
    #expect(
      saving.caused(by: .unwritableLocation(path: "/x", reason: "r")).code == .cannotCreate)
    #expect(saving.caused(by: nil) == saving)
    // A refusal for another reason keeps its own status.
    let refused = CommandFailure(.invalidData, "The note title must not be empty.")
    #expect(refused.caused(by: .diskFull(path: "/x")) == refused)
  }

  @Test func anExportOnAFullDiskSaysSoWithStatus74() {
    #expect(
      CommandFailure(SystemFailure(ENOSPC).failure(exporting: "/out"))
        == CommandFailure(
          .ioError, "cannot write the export to \"/out\": the disk is full; nothing was written"))
    #expect(CommandFailure(SystemFailure(EDQUOT).failure(exporting: "/out")).code == .ioError)
    #expect(
      CommandFailure(SystemFailure(EACCES).failure(exporting: "/out"))
        == CommandFailure(
          .cannotCreate,
          "cannot write the export to \"/out\": this user may not write there (Permission "
            + "denied); nothing was written"))
    #expect(
      CommandFailure(SystemFailure(EIO).failure(exporting: "/out"))
        == CommandFailure(
          .ioError,
          "cannot write the export to \"/out\": Input/output error; nothing was written"))
  }
}
