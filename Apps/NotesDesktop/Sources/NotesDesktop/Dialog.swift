// Dialog: the window's small modal windows — a prompt for a title and a confirmation —
// whose buttons and Enter key reach the session through an input slot.
//
// Guarantees
// - One dialog per question: it closes when answered or cancelled (Escape, Cancel, or the
//   window's close button, which counts as Cancel), and its binding ends with it.
// - A prompt whose answer the session refuses stays open with the reason under the entry.

import AirframeBinding
import CGtk

/// A modal window with a message, optionally an entry, and two buttons.
@MainActor
final class Dialog {
  /// The user's answer: the entry's text and whether they chose the main button.
  struct Answer {
    var text: String
    var accepted: Bool
  }

  /// The answers; renders never emit them (a dialog renders nothing).
  let answers = InputSlot<Answer>()
  private let window: UnsafeMutablePointer<GtkWidget>
  private let entry: UnsafeMutablePointer<GtkWidget>?
  private let reason: UnsafeMutablePointer<GtkWidget>
  private let binder = Binder(label: "dialog")
  private var isClosed = false

  /// Builds and shows a dialog over `parent`.
  ///
  /// - Parameters:
  ///   - parent: The window it belongs to.
  ///   - title: Its title (also its accessible name).
  ///   - message: The question.
  ///   - text: The entry's text, or `nil` for no entry (a confirmation).
  ///   - accept: The main button's label.
  ///   - answer: Given each answer; returns why it was refused (the dialog stays open), or
  ///     `nil` to close.
  init(
    parent: UnsafeMutablePointer<GtkWidget>, title: String, message: String, text: String?,
    accept: String, answer: @escaping (Answer) -> String?
  ) {
    window = required(gtk_window_new(), "window")
    gtk_window_set_title(cast(raw(window)), title)
    gtk_window_set_modal(cast(raw(window)), 1)
    gtk_window_set_transient_for(cast(raw(window)), cast(raw(parent)))
    gtk_window_set_default_size(cast(raw(window)), 420, -1)
    let column = required(gtk_box_new(GTK_ORIENTATION_VERTICAL, 8), "box")
    gtk_widget_set_margin_top(column, 12)
    gtk_widget_set_margin_bottom(column, 12)
    gtk_widget_set_margin_start(column, 12)
    gtk_widget_set_margin_end(column, 12)
    let label = required(gtk_label_new(message), "label")
    gtk_label_set_xalign(cast(raw(label)), 0)
    gtk_label_set_wrap(cast(raw(label)), 1)
    gtk_box_append(cast(raw(column)), label)
    entry = text.map { text in
      let entry = required(gtk_entry_new(), "entry")
      gtk_editable_set_text(cast(raw(entry)), text)
      airframe_accessible_label(entry, title)
      gtk_box_append(cast(raw(column)), entry)
      return entry
    }
    reason = required(gtk_label_new(""), "label")
    gtk_label_set_xalign(cast(raw(reason)), 0)
    gtk_label_set_wrap(cast(raw(reason)), 1)
    gtk_box_append(cast(raw(column)), reason)
    let buttons = required(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8), "box")
    gtk_widget_set_halign(buttons, GTK_ALIGN_END)
    let cancel = required(gtk_button_new_with_label("Cancel"), "button")
    let main = required(gtk_button_new_with_label(accept), "button")
    gtk_box_append(cast(raw(buttons)), cancel)
    gtk_box_append(cast(raw(buttons)), main)
    gtk_box_append(cast(raw(column)), buttons)
    gtk_window_set_child(cast(raw(window)), column)
    gtk_window_set_default_widget(cast(raw(window)), main)

    binder.bind { connect in
      connect.forward(answers) { [unowned self] choice in
        guard choice.accepted, let refusal = answer(choice) else {
          if !choice.accepted { _ = answer(choice) }
          self.close()
          return
        }
        gtk_label_set_text(cast(raw(self.reason)), refusal)
      }
    }
    Signal.connect(GPointer(main), "clicked") { [unowned self] in self.send(accepted: true) }
    Signal.connect(GPointer(cancel), "clicked") { [unowned self] in self.send(accepted: false) }
    if let entry {
      Signal.connect(GPointer(entry), "activate") { [unowned self] in self.send(accepted: true) }
    }
    Signal.connectStopping(GPointer(window), "close-request") { [unowned self] in
      if !self.isClosed { self.send(accepted: false) }
      return false
    }
    // Escape closes the window (GtkWindow's own `window.close` action), which cancels.
    let escape = required(gtk_shortcut_controller_new(), "shortcut controller")
    gtk_shortcut_controller_add_shortcut(
      cast(GPointer(escape)),
      gtk_shortcut_new(
        gtk_shortcut_trigger_parse_string("Escape"), gtk_named_action_new("window.close")))
    gtk_widget_add_controller(window, cast(GPointer(escape)))
    gtk_window_present(cast(raw(window)))
    // Enter answers with the main button: the entry has the focus in a prompt (its
    // `activate` submits), the main button in a confirmation.
    gtk_widget_grab_focus(entry ?? main)
    // The dialog keeps itself alive until it closes.
    retainedDialogs.append(self)
  }

  private func send(accepted: Bool) {
    let text = entry.flatMap { gtk_editable_get_text(cast(raw($0))) }.map { String(cString: $0) }
    _ = answers.send(Answer(text: text ?? "", accepted: accepted))
  }

  /// Closes the dialog and ends its binding.
  func close() {
    guard !isClosed else { return }
    isClosed = true
    binder.cancel()
    gtk_window_destroy(cast(raw(window)))
    retainedDialogs.removeAll { $0 === self }
  }
}

/// The dialogs that are open; each removes itself when it closes.
@MainActor private var retainedDialogs: [Dialog] = []
