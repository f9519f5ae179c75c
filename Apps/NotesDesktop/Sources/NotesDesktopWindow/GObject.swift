// GObject: the small bridge between GTK's C API and Swift closures that every widget of the
// window uses — signal handlers that are Swift closures, and pointer casts between GTK's
// class hierarchy.

import CGtk

/// A GTK object or widget pointer, whatever its static C type.
package typealias GPointer = UnsafeMutableRawPointer

/// Casts a GTK pointer to another type of its class hierarchy (GTK's `GTK_WINDOW()`, …).
///
/// - Parameter pointer: An instance of the target type or of a subtype.
/// - Returns: The same pointer, typed.
package func cast<Target>(_ pointer: GPointer) -> UnsafeMutablePointer<Target> {
  pointer.assumingMemoryBound(to: Target.self)
}

/// Casts a GTK pointer to a type of its class hierarchy that GTK keeps opaque (`GtkBox`,
/// `GtkPaned`, `GtkListItem`, …).
///
/// - Parameter pointer: An instance of the target type or of a subtype.
/// - Returns: The same pointer, opaque.
package func cast(_ pointer: GPointer) -> OpaquePointer {
  OpaquePointer(pointer)
}

/// A raw pointer to a GTK instance given as a typed pointer.
///
/// - Parameter pointer: A typed GTK pointer.
/// - Returns: The same pointer, untyped.
package func raw<Pointee>(_ pointer: UnsafeMutablePointer<Pointee>) -> GPointer {
  GPointer(pointer)
}

/// Ends the program with a message when GTK returned `NULL` where it never should.
///
/// - Parameters:
///   - pointer: What GTK returned.
///   - what: What was asked for, for the message.
/// - Returns: The pointer.
func required<Pointee>(_ pointer: UnsafeMutablePointer<Pointee>?, _ what: String)
  -> UnsafeMutablePointer<Pointee>
{
  guard let pointer else { fatalError("GTK returned no \(what)") }
  return pointer
}

/// Ends the program with a message when GTK returned `NULL` where it never should.
///
/// - Parameters:
///   - pointer: What GTK returned (an instance of an opaque type).
///   - what: What was asked for, for the message.
/// - Returns: The pointer.
func required(_ pointer: OpaquePointer?, _ what: String) -> OpaquePointer {
  guard let pointer else { fatalError("GTK returned no \(what)") }
  return pointer
}

/// A Swift closure connected to a GTK signal.
@MainActor
private final class SignalHandler {
  let run: (GPointer?, GPointer?, UInt32, UInt32) -> Bool
  init(_ run: @escaping (GPointer?, GPointer?, UInt32, UInt32) -> Bool) { self.run = run }
}

/// A Swift closure connected to a list model's `items-changed`.
@MainActor
private final class ChangeHandler {
  let run: (UInt32, UInt32, UInt32) -> Void
  init(_ run: @escaping (UInt32, UInt32, UInt32) -> Void) { self.run = run }
}

/// Connects Swift closures to GTK signals.
///
/// ## Guarantees
///
/// - A handler runs on the main thread (GTK emits signals there) as main-actor code.
/// - A handler's closure lives exactly as long as its GTK connection: it is released when
///   the signal is disconnected or the instance is finalized (the closure's destroy notify).
@MainActor
package enum Signal {
  private static func context(_ handler: SignalHandler) -> GPointer {
    Unmanaged.passRetained(handler).toOpaque()
  }

  private static let release: AirframeRelease = { context, _ in
    guard let context else { return }
    Unmanaged<AnyObject>.fromOpaque(context).release()
  }

  private static func handler(_ context: GPointer?) -> SignalHandler? {
    context.map { Unmanaged<SignalHandler>.fromOpaque($0).takeUnretainedValue() }
  }

  /// Connects a handler of a signal with no arguments (`clicked`, `changed`, `activate`).
  ///
  /// - Parameters:
  ///   - instance: The emitting object.
  ///   - name: The signal's name.
  ///   - body: The handler.
  /// - Returns: The connection's id.
  @discardableResult
  package static func connect(
    _ instance: GPointer, _ name: String, _ body: @escaping () -> Void
  ) -> UInt {
    let trampoline: AirframeHandler2 = { _, context in
      MainActor.assumeIsolated { _ = Signal.handler(context)?.run(nil, nil, 0, 0) }
    }
    let handler = SignalHandler { _, _, _, _ in
      body()
      return false
    }
    return airframe_connect2(instance, name, trampoline, context(handler), release)
  }

  /// Connects a handler of a signal with one pointer argument (a list item, a parameter).
  ///
  /// - Parameters:
  ///   - instance: The emitting object.
  ///   - name: The signal's name.
  ///   - body: The handler, given the argument.
  /// - Returns: The connection's id.
  @discardableResult
  static func connect(
    _ instance: GPointer, _ name: String, withArgument body: @escaping (GPointer?) -> Void
  ) -> UInt {
    let trampoline: AirframeHandler3 = { _, argument, context in
      MainActor.assumeIsolated { _ = Signal.handler(context)?.run(argument, nil, 0, 0) }
    }
    let handler = SignalHandler { argument, _, _, _ in
      body(argument)
      return false
    }
    return airframe_connect3(instance, name, trampoline, context(handler), release)
  }

  /// Connects a handler of a signal with two unsigned arguments (`selection-changed`).
  ///
  /// - Parameters:
  ///   - instance: The emitting object.
  ///   - name: The signal's name.
  ///   - body: The handler, given both arguments.
  /// - Returns: The connection's id.
  @discardableResult
  static func connect(
    _ instance: GPointer, _ name: String, withPositions body: @escaping (UInt32, UInt32) -> Void
  ) -> UInt {
    let trampoline: AirframeHandler4 = { _, first, second, context in
      MainActor.assumeIsolated { _ = Signal.handler(context)?.run(nil, nil, first, second) }
    }
    let handler = SignalHandler { _, _, first, second in
      body(first, second)
      return false
    }
    return airframe_connect4(instance, name, trampoline, context(handler), release)
  }

  /// Connects a handler of a signal with one position argument (a list view's `activate`).
  ///
  /// - Parameters:
  ///   - instance: The emitting object.
  ///   - name: The signal's name.
  ///   - body: The handler, given the position.
  /// - Returns: The connection's id.
  @discardableResult
  static func connect(
    _ instance: GPointer, _ name: String, withPosition body: @escaping (UInt32) -> Void
  ) -> UInt {
    let trampoline: AirframeHandlerPosition = { _, position, context in
      MainActor.assumeIsolated { _ = Signal.handler(context)?.run(nil, nil, position, 0) }
    }
    let handler = SignalHandler { _, _, position, _ in
      body(position)
      return false
    }
    return airframe_connect_position(instance, name, trampoline, context(handler), release)
  }

  /// Connects a handler of a list model's `items-changed` (position, removed, added).
  ///
  /// - Parameters:
  ///   - model: A `GListModel`.
  ///   - body: The handler, given the position and how many items went and came there.
  /// - Returns: The connection's id.
  @discardableResult
  static func connectItemsChanged(
    _ model: GPointer,
    _ body: @escaping (_ position: UInt32, _ removed: UInt32, _ added: UInt32) -> Void
  ) -> UInt {
    let trampoline: AirframeHandlerChange = { _, position, removed, added, context in
      MainActor.assumeIsolated {
        guard let context else { return }
        Unmanaged<ChangeHandler>.fromOpaque(context).takeUnretainedValue().run(
          position, removed, added)
      }
    }
    let context = Unmanaged.passRetained(ChangeHandler(body)).toOpaque()
    return airframe_connect_change(model, "items-changed", trampoline, context, release)
  }

  /// Connects a key controller's `key-pressed` handler; its answer stops the key.
  ///
  /// - Parameters:
  ///   - controller: A `GtkEventControllerKey`.
  ///   - body: The handler, given the key's value (`GDK_KEY_…`); `true` if it handled it.
  /// - Returns: The connection's id.
  @discardableResult
  static func connectKeys(_ controller: GPointer, _ body: @escaping (UInt32) -> Bool) -> UInt {
    let trampoline: AirframeKeyHandler = { _, key, _, _, context in
      MainActor.assumeIsolated { Signal.handler(context)?.run(nil, nil, key, 0) ?? false } ? 1 : 0
    }
    let handler = SignalHandler { _, _, key, _ in body(key) }
    return airframe_connect_key(controller, "key-pressed", trampoline, context(handler), release)
  }

  /// Connects a handler whose answer stops the signal (`close-request`).
  ///
  /// - Parameters:
  ///   - instance: The emitting object.
  ///   - name: The signal's name.
  ///   - body: The handler; `true` stops the default handling.
  /// - Returns: The connection's id.
  @discardableResult
  static func connectStopping(
    _ instance: GPointer, _ name: String, _ body: @escaping () -> Bool
  ) -> UInt {
    let trampoline: AirframeBoolHandler2 = { _, context in
      MainActor.assumeIsolated { Signal.handler(context)?.run(nil, nil, 0, 0) ?? false } ? 1 : 0
    }
    let handler = SignalHandler { _, _, _, _ in body() }
    return airframe_connect_bool2(instance, name, trampoline, context(handler), release)
  }
}
