import AirframeBinding
import CGtk

/// A window over its parent with a message, optionally an entry, and two buttons.
///
/// A prompt for a title or a confirmation, whose buttons and Enter key reach the session through an
/// input slot.
///
/// ## Guarantees
///
/// - One dialog per question: it closes when answered or cancelled (Escape, Cancel, or the
///   window's close button, which counts as Cancel), and its binding ends with it.
/// - A prompt whose answer the session refuses stays open with the reason under the entry.
/// - `close()` (the window it belongs to closing, or the question answered elsewhere) ends it
///   without an answer.
@MainActor
final class Dialog: WindowDialog {
  /// The user's answer: the entry's text and whether they chose the main button.
  struct Answer {
    var text: String
    var accepted: Bool
  }

  /// The answers; renders never emit them (a dialog renders nothing).
  let answers = InputSlot<Answer>()
  private let frame: DialogWindow
  private let entry: UnsafeMutablePointer<GtkWidget>?
  private let binder = Binder(label: "dialog")
  private var isClosed = false
  /// Called once when the dialog closes, however it closes.
  var closed: (() -> Void)?

  /// Builds and shows a dialog over `parent`.
  ///
  /// - Parameters:
  ///   - parent: The window it belongs to.
  ///   - title: Its title (also its accessible name).
  ///   - message: The question.
  ///   - text: The entry's text, or `nil` for no entry (a confirmation).
  ///   - accept: The main button's label.
  ///   - modal: Whether the parent takes no input while it is open.
  ///   - answer: Given each answer; returns why it was refused (the dialog stays open), or
  ///     `nil` to close.
  init(
    parent: UnsafeMutablePointer<GtkWidget>, title: String, message: String, text: String?,
    accept: String, modal: Bool = true, answer: @escaping (Answer) -> String?
  ) {
    frame = DialogWindow(
      parent: parent, title: title, message: message, accept: accept, modal: modal)
    entry = text.map { text in
      let entry = required(gtk_entry_new(), "entry")
      gtk_editable_set_text(cast(raw(entry)), text)
      airframe_accessible_label(entry, title)
      return entry
    }
    if let entry { frame.append(entry) }

    binder.bind { connect in
      connect.forward(answers) { [unowned self] choice in
        guard choice.accepted, let refusal = answer(choice) else {
          if !choice.accepted { _ = answer(choice) }
          self.close()
          return
        }
        self.frame.showReason(refusal)
      }
    }
    Signal.connect(GPointer(frame.main), "clicked") { [unowned self] in self.send(accepted: true) }
    Signal.connect(GPointer(frame.cancel), "clicked") { [unowned self] in
      self.send(accepted: false)
    }
    if let entry {
      Signal.connect(GPointer(entry), "activate") { [unowned self] in self.send(accepted: true) }
    }
    Signal.connectStopping(GPointer(frame.window), "close-request") { [unowned self] in
      if !self.isClosed { self.send(accepted: false) }
      return false
    }
    // Enter answers with the main button: the entry has the focus in a prompt (its
    // `activate` submits), the main button in a confirmation.
    frame.present(focus: entry ?? frame.main)
    // The dialog keeps itself alive until it closes.
    openDialogs.append(self)
  }

  private func send(accepted: Bool) {
    let text = entry.flatMap { gtk_editable_get_text(cast(raw($0))) }.map { String(cString: $0) }
    _ = answers.send(Answer(text: text ?? "", accepted: accepted))
  }

  /// Closes the dialog and ends its binding, without an answer.
  func close() {
    guard !isClosed else { return }
    isClosed = true
    binder.cancel()
    frame.destroy()
    openDialogs.removeAll { $0 === self }
    closed?()
  }
}
