// PostgresConnection+Pipeline: several statements sent at once, their answers read after.

import CPostgres

/// One statement of a pipeline (``PostgresConnection/pipeline(_:)``).
public struct PipelinedStatement: Sendable {
  /// Exactly one SQL statement.
  let sql: String
  /// Its parameters, as text (`nil` is NULL).
  let parameters: [String?]
  /// The name it is prepared under on the connection, or `nil` to send it as it is.
  let name: String?

  /// A statement sent with its parameters.
  ///
  /// - Parameters:
  ///   - sql: Exactly one SQL statement.
  ///   - parameters: Its parameters, as text.
  public init(_ sql: String, _ parameters: [String?] = []) {
    self.sql = sql
    self.parameters = parameters
    name = nil
  }

  private init(name: String, sql: String, parameters: [String?]) {
    self.sql = sql
    self.parameters = parameters
    self.name = name
  }

  /// A statement prepared once for the connection under `name` (as
  /// ``PostgresConnection/executePrepared(_:_:_:whileWaiting:)`` prepares it), executed
  /// with `parameters`.
  ///
  /// - Parameters:
  ///   - name: The statement's name on the connection; the same name always stands for the
  ///     same `sql`.
  ///   - sql: Exactly one SQL statement.
  ///   - parameters: Its parameters, as text.
  /// - Returns: The statement.
  public static func prepared(_ name: String, _ sql: String, _ parameters: [String?]) -> Self {
    Self(name: name, sql: sql, parameters: parameters)
  }
}

extension PostgresConnection {
  /// Sends `statements` at once and returns each one's answer, in order.
  ///
  /// The server runs them one after the other without waiting for this side: a
  /// transaction sent whole (`BEGIN` … `COMMIT`) holds its locks only while the server
  /// runs it. Each statement is answered apart: a failed one stops none of the later
  /// ones, which inside a transaction fail in turn (its `COMMIT` then rolls it back, and
  /// answers without an error, so look at every answer); a transaction the caller did not
  /// end is the caller's to roll back.
  ///
  /// ```swift
  /// let answers = try connection.pipeline([
  ///   PipelinedStatement("BEGIN"), PipelinedStatement("UPDATE …", ["42"]),
  ///   PipelinedStatement("COMMIT"),
  /// ])
  /// if answers.contains(where: { (try? $0.get()) == nil }) {
  ///   _ = try? connection.execute("ROLLBACK")
  /// }
  /// ```
  ///
  /// ## Guarantees
  ///
  /// - The statements go to the server together (libpq's pipeline mode) and the server runs
  ///   them one after the other without waiting for this side in between: a transaction sent
  ///   whole, from BEGIN to COMMIT, holds its locks only as long as the server takes to run
  ///   it, however late this side would have answered (a busy machine, a slow network).
  /// - Answers come back in order, each awaited within the connection's bounds as every
  ///   answer is; each statement's is its rows or its error.
  /// - Each statement is a sync point of its own (a Sync message after it): between any two
  ///   the server counts as idle, so a transaction whose device goes silent midway, with the
  ///   rest of the pipeline never arriving, is ended by the server's idle-in-transaction
  ///   bound, its locks freed. Without the Syncs the server would wait for the rest with no
  ///   bound but the network's. A statement that fails so stops none of the later ones; in a
  ///   transaction they fail in turn (and its COMMIT rolls it back).
  /// - A statement named for preparation is prepared once per connection, within the same
  ///   pipeline the first time.
  /// - A lost connection fails the whole call `isUnavailable` and closes the connection;
  ///   otherwise the connection has left pipeline mode when the call returns.
  /// - Meant for small answers: while the statements are sent, the server's answers wait in
  ///   its buffers; libpq reads them whenever it cannot send, so neither side waits for ever.
  ///
  /// - Parameter statements: The statements, in order.
  /// - Returns: Each statement's rows, or its error.
  /// - Throws: ``PostgresError`` (`isUnavailable`) when the statements cannot be sent or the
  ///   connection is lost.
  public func pipeline(
    _ statements: [PipelinedStatement]
  ) throws(PostgresError) -> [Result<PostgresRows, PostgresError>] {
    guard let handle else {
      throw PostgresError("the connection is closed", isUnavailable: true)
    }
    guard !statements.isEmpty else { return [] }
    guard PQenterPipelineMode(handle) == 1 else {
      throw lost(Self.firstLine(PQerrorMessage(handle)))
    }
    /// What was sent, in order: a statement's preparation (answered apart) or a statement.
    enum Sent {
      case preparation(String)
      case statement
    }
    var sent: [Sent] = []
    var preparing: Set<String> = []
    for statement in statements {
      let count = Int32(statement.parameters.count)
      if let name = statement.name, !prepared.contains(name), !preparing.contains(name) {
        guard PQsendPrepare(handle, name, statement.sql, count, nil) == 1 else {
          throw lost(Self.firstLine(PQerrorMessage(handle)))
        }
        preparing.insert(name)
        sent.append(.preparation(name))
      }
      let isSent = Self.withCStrings(statement.parameters) { values in
        if let name = statement.name {
          PQsendQueryPrepared(handle, name, count, values, nil, nil, 0)
        } else {
          PQsendQueryParams(handle, statement.sql, count, nil, values, nil, nil, 0)
        }
      }
      guard isSent == 1, PQpipelineSync(handle) == 1 else {
        throw lost(Self.firstLine(PQerrorMessage(handle)))
      }
      sent.append(.statement)
    }

    var answers: [Result<PostgresRows, PostgresError>] = []
    for item in sent {
      let result = try result(on: handle)
      switch item {
      case .preparation(let name):
        if let result, PQresultStatus(result) == PGRES_COMMAND_OK { prepared.insert(name) }
        if let result { PQclear(result) }
      case .statement:
        if let result, PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
          PQclear(result)
          answers.append(
            .failure(PostgresError("not run: its preparation failed")))
        } else {
          answers.append(
            Result { () throws(PostgresError) in try Self.rows(of: result, on: handle) })
        }
        // The statement's sync point.
        try awaitResult(on: handle)
        let sync = PQgetResult(handle)
        let isSync = sync.map { PQresultStatus($0) == PGRES_PIPELINE_SYNC } ?? false
        if let sync { PQclear(sync) }
        guard isSync else { throw lost("the server's answers to a pipeline came out of order") }
      }
    }
    guard PQexitPipelineMode(handle) == 1 else {
      throw lost(Self.firstLine(PQerrorMessage(handle)))
    }
    return answers
  }
}
