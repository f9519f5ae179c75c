// Encrypted connections: a throwaway certificate authority and server certificate made with
// `openssl`, PostgreSQL started with TLS on 127.0.0.1, and the transport rule that refuses
// plain text to a server that is not on this machine.
//
// "Not on this machine" is judged from the URL before connecting: the host name as written
// (a `hostaddr` beside it only says where to send the packets). So `host=notes.example
// hostaddr=127.0.0.1` is a non-local server by the rule — its certificate is checked
// against notes.example — yet the test's own server answers it: the rule is tested against
// a real server, not an unreachable one.

import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesServer

@Suite(.serialized, .timeLimit(.minutes(10)))
struct TLSTests {
  /// A certificate authority, a server certificate for notes.example signed by it, and a
  /// second authority that signed nothing, in a folder of the test's own.
  struct Certificates {
    let folder: TemporaryFolder
    var authority: String { folder.file("ca.crt") }
    var otherAuthority: String { folder.file("other-ca.crt") }
    var server: TemporaryPostgres.TLSFiles {
      .init(certificate: folder.file("server.crt"), key: folder.file("server.key"))
    }

    static func make() throws -> Certificates {
      let openssl = try #require(
        Programs.onPath("openssl"), "openssl is not installed (apt-get install openssl)")
      let folder = try TemporaryFolder(prefix: "tls")
      func run(_ arguments: [String]) throws {
        let result = try Programs.run(
          openssl, arguments, environment: ["PATH=/usr/bin:/bin"], folder: folder)
        try #require(result.status == 0, "openssl \(arguments[0]) failed: \(result.errors)")
      }
      let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
      let authority = [
        "-x509", "-days", "2", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
      ]
      for name in ["ca", "other-ca"] {
        try run(
          ["req"] + authority + key + [
            "-keyout", folder.file("\(name).key"), "-out", folder.file("\(name).crt"), "-subj",
            "/CN=Notes test \(name)",
          ])
      }
      try run(
        ["req"] + key + [
          "-keyout", folder.file("server.key"), "-out", folder.file("server.csr"), "-subj",
          "/CN=notes.example",
        ])
      try Data("subjectAltName=DNS:notes.example\n".utf8).write(
        to: URL(fileURLWithPath: folder.file("san.ext")))
      try run([
        "x509", "-req", "-in", folder.file("server.csr"), "-CA", folder.file("ca.crt"),
        "-CAkey", folder.file("ca.key"), "-CAcreateserial", "-days", "2", "-out",
        folder.file("server.crt"), "-extfile", folder.file("san.ext"),
      ])
      return Certificates(folder: folder)
    }
  }

  /// The URL of `host` (answered by 127.0.0.1) on `server` as alice, with `settings`.
  func url(_ server: TemporaryPostgres, host: String = "notes.example", _ settings: String)
    -> String
  {
    "host=\(host) hostaddr=127.0.0.1 port=\(server.port) dbname=postgres user=alice"
      + " password='alice pw' \(settings)"
  }

  @Test func aDeviceConnectsWithTheRightAuthorityAndNothingElse() async throws {
    let certificates = try Certificates.make()
    defer { certificates.folder.remove() }
    let server = try await TemporaryPostgres.started(tls: certificates.server)
    do {
      // In the test's own task, so every expectation is the test's.
      try checkConnections(to: server, certificates: certificates)
    } catch {
      await server.stopped()
      throw error
    }
    await server.stopped()
  }

  private func checkConnections(to server: TemporaryPostgres, certificates: Certificates) throws {
    let admin = try PostgresConnection(url: server.url)
    defer { admin.close() }
    try ServerSchema.prepare(admin)
    try ServerAccounts.add("alice", password: "alice pw", on: admin)

    // The right authority, and a certificate naming the host: TLS, checked.
    let verified = url(server, "sslmode=verify-full sslrootcert='\(certificates.authority)'")
    let connection = try PostgresConnection(url: verified)
    #expect(
      try connection.execute("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
        .singleValue == "t")
    connection.close()
    // A device syncs over it.
    let device = try SyncServer(url: verified)
    let outcome = try device.push(
      [
        OutgoingChange(
          changeID: UUID().uuidString.lowercased(), baseSeq: 0,
          record: SyncRecord(
            kind: .notebook, uid: UUID().uuidString.lowercased(),
            fields: SyncFields(title: "Over TLS", created: 1)))
      ], device: UUID().uuidString.lowercased())
    #expect(outcome.count == 1)
    device.close()

    // Another authority: the certificate does not check out.
    #expect {
      _ = try PostgresConnection(
        url: url(server, "sslmode=verify-full sslrootcert='\(certificates.otherAuthority)'"))
    } throws: { error in
      let error = error as? PostgresError
      return error?.message.contains("certificate verify failed") == true
        && error?.isUnavailable == false
    }
    // The right authority, but the certificate names another host.
    #expect {
      _ = try PostgresConnection(
        url: url(
          server, host: "other.example",
          "sslmode=verify-full sslrootcert='\(certificates.authority)'"))
    } throws: { error in
      (error as? PostgresError)?.message.contains(
        "server certificate for \"notes.example\" does not match host name \"other.example\"")
        == true
    }
    // No sslmode: libpq's default would fall back to plain text; refused before connecting.
    #expect {
      _ = try PostgresConnection(url: url(server, ""))
    } throws: { error in
      (error as? PostgresError)?.message
        == "refusing to connect to notes.example, which is not on this machine, without TLS"
        + " and a certificate that names it (sslmode is prefer): add sslmode=verify-full to the"
        + " URL (with sslrootcert=FILE for a private certificate authority), or name another"
        + " sslmode there to connect without that check"
    }
    // Plain text said explicitly in the URL passes the rule; this server takes only TLS.
    #expect {
      _ = try PostgresConnection(url: url(server, "sslmode=disable"))
    } throws: { error in
      (error as? PostgresError)?.message.contains("no pg_hba.conf entry") == true
    }
  }

  @Test func theTransportRuleIsAppliedToTheURLBeforeAnyConnection() throws {
    // A host that cannot exist: the refusal is the rule's, not a failed lookup.
    #expect {
      _ = try PostgresConnection(url: "postgresql://alice@db.example.invalid/notes")
    } throws: { error in
      (error as? PostgresError)?.message.hasPrefix(
        "refusing to connect to db.example.invalid, which is not on this machine") == true
    }
    let remote = [
      "host=db.example", "postgresql://alice@192.0.2.10/notes", "host=/tmp,db.example",
      "host=localhost hostaddr=192.0.2.10", "host=db.example sslmode=prefer",
      "postgresql://[2001:db8::1]/notes", "service=notes",
    ]
    for url in remote {
      let settings = try ConnectionSettings(url)
      #expect(!settings.isLocal, "\(url)")
    }
    // A local server, or an sslmode the URL names: allowed (the rule says nothing).
    let allowed = [
      "postgresql:///notes", "host=/tmp/pg dbname=notes", "host=localhost",
      "postgresql://127.0.0.1/notes", "postgresql://[::1]/notes", "host=127.8.9.10",
      "host=@abstract", "host=db.example sslmode=verify-full", "host=db.example sslmode=require",
      "host=db.example sslmode=disable", "hostaddr=::ffff:127.0.0.1",
    ]
    for url in allowed {
      #expect(throws: Never.self, "\(url)") { try ConnectionSettings(url).checkTransport() }
    }
  }

  @Test func settingsPrintWithoutThePasswordAndReadBackTheSame() throws {
    let settings = try ConnectionSettings(
      "postgresql://al%3Ace:p%40ss@db.example:5433/my%20notes?sslmode=verify-full")
    #expect(settings.password == "p@ss")
    #expect(
      settings.description
        == "user=al:ce password=*** dbname='my notes' host=db.example port=5433"
        + " sslmode=verify-full")
    let stored = settings.connectionString
    #expect(!stored.contains("p@ss") && !stored.contains("password"))
    #expect(try ConnectionSettings(stored) == settings.withoutPassword)
    let quoted = try ConnectionSettings(#"host=/tmp user='it\'s me' password='a b\\c'"#)
    #expect(quoted.password == #"a b\c"#)
    #expect(try ConnectionSettings(quoted.connectionString).value("user") == "it's me")
    #expect(throws: PostgresError.self) { try ConnectionSettings("host='unterminated") }
  }

  @Test func aPasswordFileLineMatchesWhatLibpqLooksFor() throws {
    #expect(PasswordFile.escaped(#"a:b\c"#) == #"a\:b\\c"#)
    #expect(
      PasswordFile.fields(of: #"h\:x:5432:db:u\\s:p:w\\d"#) == [
        "h:x", "5432", "db", #"u\s"#, #"p:w\d"#,
      ])
    #expect(PostgresConnection.defaultSocketFolder.hasPrefix("/"))
  }
}
