// DialogWindow: the frame every dialog of the window shares — a window over its parent
// (modal unless it shows a question the session holds) with a message, room for content,
// a line for the reason an answer was refused, and Cancel and main buttons; Escape and the
// close button cancel.

import CGtk

/// A dialog window's widgets; a dialog adds its content and connects the buttons.
@MainActor
struct DialogWindow {
  /// The window.
  let window: UnsafeMutablePointer<GtkWidget>
  /// The column the content goes in, between the message and the reason.
  let column: UnsafeMutablePointer<GtkWidget>
  /// Where a refused answer's reason shows.
  let reason: UnsafeMutablePointer<GtkWidget>
  /// The main button (the default widget: Enter outside an entry presses it).
  let main: UnsafeMutablePointer<GtkWidget>
  /// The Cancel button.
  let cancel: UnsafeMutablePointer<GtkWidget>
  private let buttons: UnsafeMutablePointer<GtkWidget>

  /// Builds the window, not shown yet.
  ///
  /// - Parameters:
  ///   - parent: The window it belongs to.
  ///   - title: Its title (also its accessible name).
  ///   - message: The question.
  ///   - accept: The main button's label.
  ///   - width: Its default width.
  ///   - modal: Whether its parent takes no input while it is open.
  init(
    parent: UnsafeMutablePointer<GtkWidget>, title: String, message: String, accept: String,
    width: Int32 = 420, modal: Bool = true
  ) {
    window = required(gtk_window_new(), "window")
    gtk_window_set_title(cast(raw(window)), title)
    gtk_window_set_modal(cast(raw(window)), modal ? 1 : 0)
    gtk_window_set_transient_for(cast(raw(window)), cast(raw(parent)))
    gtk_window_set_default_size(cast(raw(window)), width, -1)
    column = required(gtk_box_new(GTK_ORIENTATION_VERTICAL, 8), "box")
    gtk_widget_set_margin_top(column, 12)
    gtk_widget_set_margin_bottom(column, 12)
    gtk_widget_set_margin_start(column, 12)
    gtk_widget_set_margin_end(column, 12)
    // The message and the reason may quote a title of 200 characters without a space:
    // they wrap inside a word when they must, or the dialog grows past its screen.
    let label = required(gtk_label_new(message), "label")
    gtk_label_set_xalign(cast(raw(label)), 0)
    gtk_label_set_wrap(cast(raw(label)), 1)
    gtk_label_set_wrap_mode(cast(raw(label)), PANGO_WRAP_WORD_CHAR)
    gtk_box_append(cast(raw(column)), label)
    reason = required(gtk_label_new(""), "label")
    gtk_label_set_xalign(cast(raw(reason)), 0)
    gtk_label_set_wrap(cast(raw(reason)), 1)
    gtk_label_set_wrap_mode(cast(raw(reason)), PANGO_WRAP_WORD_CHAR)
    buttons = required(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8), "box")
    gtk_widget_set_halign(buttons, GTK_ALIGN_END)
    cancel = required(gtk_button_new_with_label("Cancel"), "button")
    main = required(gtk_button_new_with_label(accept), "button")
    gtk_box_append(cast(raw(buttons)), cancel)
    gtk_box_append(cast(raw(buttons)), main)
    gtk_window_set_child(cast(raw(window)), column)
    gtk_window_set_default_widget(cast(raw(window)), main)
    // Escape closes the window (GtkWindow's own `window.close` action), which cancels.
    let escape = required(gtk_shortcut_controller_new(), "shortcut controller")
    gtk_shortcut_controller_add_shortcut(
      cast(GPointer(escape)),
      gtk_shortcut_new(
        gtk_shortcut_trigger_parse_string("Escape"), gtk_named_action_new("window.close")))
    gtk_widget_add_controller(window, cast(GPointer(escape)))
  }

  /// Adds `widget` to the content, below what was added before.
  ///
  /// - Parameter widget: The widget.
  func append(_ widget: UnsafeMutablePointer<GtkWidget>) {
    gtk_box_append(cast(raw(column)), widget)
  }

  /// Adds the reason line and the buttons after the content, shows the window and gives
  /// `focus` the keyboard.
  ///
  /// - Parameter focus: The widget Enter acts on first.
  func present(focus: UnsafeMutablePointer<GtkWidget>) {
    gtk_box_append(cast(raw(column)), reason)
    gtk_box_append(cast(raw(column)), buttons)
    gtk_window_present(cast(raw(window)))
    gtk_widget_grab_focus(focus)
  }

  /// Shows why the answer was refused.
  ///
  /// - Parameter text: The reason.
  func showReason(_ text: String) {
    gtk_label_set_text(cast(raw(reason)), text)
  }

  /// Destroys the window.
  func destroy() {
    gtk_window_destroy(cast(raw(window)))
  }
}

/// A dialog of a window: it can be closed without an answer, and says when it closed.
@MainActor
protocol WindowDialog: AnyObject {
  /// Called once when the dialog closes, however it closes.
  var closed: (() -> Void)? { get set }
  /// Closes the dialog without an answer.
  func close()
}

/// The dialogs that are open; each removes itself when it closes.
@MainActor var openDialogs: [any WindowDialog] = []
