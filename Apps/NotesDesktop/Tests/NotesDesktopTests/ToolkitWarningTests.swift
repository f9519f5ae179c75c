// The desktop tests fail on any warning GTK logs (`DesktopSession.close()`): the lines that
// check reads as warnings, taken from the window's real output, and lines it lets pass.

import Testing

@Suite struct ToolkitWarningTests {
  @Test(arguments: [
    "(notes-desktop:12189): Gtk-CRITICAL **: 18:28:14.917: gtk_widget_get_mapped: assertion "
      + "'GTK_IS_WIDGET (widget)' failed",
    "(notes-desktop:12189): GLib-GObject-WARNING **: 18:28:14.917: invalid unclassed pointer "
      + "in cast to 'GtkWidget'",
    "(notes-desktop:13430): GLib-GIO-CRITICAL **: 18:29:13.457: g_list_store_splice: "
      + "assertion 'position + n_removals <= n_items' failed",
    "(notes-desktop:1): Gtk-WARNING **: 10:00:00.000: Broken accounting of active state",
    "** (notes-desktop:1): WARNING **: 10:00:00.000: something without a log domain",
    "(notes-desktop:1): GLib-ERROR **: 10:00:00.000: out of memory",
  ])
  func aWarningIsAFailure(_ line: String) {
    #expect(isToolkitWarning(line))
  }

  @Test(arguments: [
    "(notes-desktop:1): Gtk-Message: 10:00:00.000: a message, not a warning",
    "notes-desktop: cannot open the library: the file is locked",
    "",
  ])
  func otherOutputIsNot(_ line: String) {
    #expect(!isToolkitWarning(line))
  }
}
