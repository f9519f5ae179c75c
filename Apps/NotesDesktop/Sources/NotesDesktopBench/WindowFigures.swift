// WindowFigures: what the window costs, taken inside its own process while GTK's loop runs —
// a keystroke until every widget shows it, GTK's frame for it, and the main-queue bridge.

import CGtk
import Dispatch
import Foundation
import NotesDesktopWindow

/// Measures one open window.
@MainActor
final class WindowFigures {
  private let window: DesktopWindow
  /// When the frame being made began its first phase, if one is being made.
  private var frameStart: UInt64?
  private var frameWaiters: [CheckedContinuation<(layout: UInt64, painted: UInt64), Never>] = []

  /// Follows `window`'s frames (it must be shown: its frame clock exists then).
  init(window: DesktopWindow) {
    self.window = window
    guard let clock = gtk_widget_get_frame_clock(window.window) else {
      fatalError("the window has no frame clock: it is not shown")
    }
    // A frame runs only the phases some widget asked for (a redraw alone has no layout):
    // its work starts at the first of update, layout and paint that runs.
    for phase in ["update", "layout", "paint"] {
      Signal.connect(GPointer(clock), phase) { [unowned self] in
        if self.frameStart == nil { self.frameStart = now() }
      }
    }
    Signal.connect(GPointer(clock), "after-paint") { [unowned self] in
      let painted = now()
      let start = self.frameStart ?? painted
      self.frameStart = nil
      let waiters = self.frameWaiters
      self.frameWaiters.removeAll()
      for waiter in waiters { waiter.resume(returning: (start, painted)) }
    }
  }

  /// When the next frame's work started and its paint ended.
  func nextFrame() async -> (layout: UInt64, painted: UInt64) {
    await withCheckedContinuation { frameWaiters.append($0) }
  }

  /// Types `count` characters at the cursor, one a frame.
  ///
  /// - Returns: For each key: from the key until every widget was updated (the session's
  ///   save and every render run before the insertion returns), and GTK's own frame for it
  ///   (layout and paint).
  func keystrokes(_ count: Int) async -> (renders: Samples, frame: Samples) {
    var renders = Samples()
    var frames = Samples()
    let keys = Array("the quick brown fox jumps over the lazy dog ")
    for index in 0..<count {
      let start = now()
      window.typeAtCursor(String(keys[index % keys.count]))
      let rendered = now()
      let (layout, painted) = await nextFrame()
      renders.append(rendered - start)
      frames.append(painted - max(layout, rendered))
    }
    return (renders, frames)
  }

  /// Work queued on the main queue from another thread, `count` times one after another:
  /// from the queueing until it runs inside GTK's loop.
  static func bridgeLatency(_ count: Int) async -> Samples {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        let box = SampleBox()
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<count {
          let queued = now()
          DispatchQueue.main.async {
            box.append(now() - queued)
            done.signal()
          }
          done.wait()
          usleep(200)
        }
        continuation.resume(returning: box.samples)
      }
    }
  }
}

/// Samples written on the main queue and read after the last one, on another thread.
private final class SampleBox {
  var samples = Samples()
  func append(_ value: UInt64) { samples.append(value) }
}

// Written by main-queue blocks and read by the measuring thread only after the semaphore
// each block signals: the semaphore orders every access.
extension SampleBox: @unchecked Sendable {}
