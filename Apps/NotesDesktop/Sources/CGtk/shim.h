// The GTK 4 calls the desktop window makes from Swift, where GTK uses C macros (signal
// connection, type casts) or needs a C callback of a fixed shape.
#ifndef AIRFRAME_CGTK_SHIM_H
#define AIRFRAME_CGTK_SHIM_H

#include <glib-unix.h>
#include <gtk/gtk.h>
#include <stdint.h>
#include <unistd.h>

// MARK: - The main queue inside GTK's main loop

// libdispatch's hooks for a run loop that drains the main queue (the ones Foundation's
// CFRunLoop uses): the descriptor that becomes readable when work is queued, and the
// call that runs it. On Linux the descriptor is an eventfd.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

static gboolean airframe_drain_main_queue(gint descriptor, GIOCondition condition, gpointer data) {
  (void)condition;
  (void)data;
  uint64_t count;
  // Clear the eventfd first: work queued while the queue drains wakes the loop again.
  (void)read(descriptor, &count, sizeof count);
  _dispatch_main_queue_callback_4CF(NULL);
  return G_SOURCE_CONTINUE;
}

/// Makes GTK's main loop run `DispatchQueue.main` (and so `@MainActor`) work as soon as it
/// is queued: a file-descriptor source on libdispatch's wake-up eventfd, no polling.
static inline guint airframe_bridge_main_queue(void) {
  return g_unix_fd_add(_dispatch_get_main_queue_handle_4CF(), G_IO_IN, airframe_drain_main_queue,
                       NULL);
}

// MARK: - Signals

/// A Swift handler's context: the object the handler was connected with.
typedef void (*AirframeHandler2)(gpointer instance, gpointer context);
typedef void (*AirframeHandler3)(gpointer instance, gpointer argument, gpointer context);
typedef void (*AirframeHandler4)(gpointer instance, guint first, guint second, gpointer context);
typedef gboolean (*AirframeBoolHandler2)(gpointer instance, gpointer context);
typedef void (*AirframeHandlerPosition)(gpointer instance, guint position, gpointer context);
typedef void (*AirframeHandlerChange)(gpointer instance, guint position, guint removed,
                                      guint added, gpointer context);
typedef gboolean (*AirframeKeyHandler)(gpointer instance, guint keyval, guint keycode,
                                       GdkModifierType state, gpointer context);
typedef void (*AirframeRelease)(gpointer context, GClosure *closure);

static inline gulong airframe_connect2(gpointer instance, const char *signal,
                                       AirframeHandler2 handler, gpointer context,
                                       AirframeRelease release) {
  return g_signal_connect_data(instance, signal, G_CALLBACK(handler), context, release, 0);
}

static inline gulong airframe_connect3(gpointer instance, const char *signal,
                                       AirframeHandler3 handler, gpointer context,
                                       AirframeRelease release) {
  return g_signal_connect_data(instance, signal, G_CALLBACK(handler), context, release, 0);
}

static inline gulong airframe_connect4(gpointer instance, const char *signal,
                                       AirframeHandler4 handler, gpointer context,
                                       AirframeRelease release) {
  return g_signal_connect_data(instance, signal, G_CALLBACK(handler), context, release, 0);
}

static inline gulong airframe_connect_bool2(gpointer instance, const char *signal,
                                            AirframeBoolHandler2 handler, gpointer context,
                                            AirframeRelease release) {
  return g_signal_connect_data(instance, signal, G_CALLBACK(handler), context, release, 0);
}

static inline gulong airframe_connect_position(gpointer instance, const char *signal,
                                               AirframeHandlerPosition handler, gpointer context,
                                               AirframeRelease release) {
  return g_signal_connect_data(instance, signal, G_CALLBACK(handler), context, release, 0);
}

static inline gulong airframe_connect_change(gpointer instance, const char *signal,
                                             AirframeHandlerChange handler, gpointer context,
                                             AirframeRelease release) {
  return g_signal_connect_data(instance, signal, G_CALLBACK(handler), context, release, 0);
}

static inline gulong airframe_connect_key(gpointer instance, const char *signal,
                                          AirframeKeyHandler handler, gpointer context,
                                          AirframeRelease release) {
  return g_signal_connect_data(instance, signal, G_CALLBACK(handler), context, release, 0);
}

// MARK: - Text

/// Adds a tag named `name` to `buffer`: its text drawn in `foreground` on `background`
/// (none: unchanged), bold when `bold`, struck through when `strikethrough`.
/// (`gtk_text_buffer_create_tag` takes its properties as C variadic arguments, which Swift
/// cannot pass.)
static inline void airframe_text_tag(GtkTextBuffer *buffer, const char *name,
                                     const char *foreground, const char *background,
                                     gboolean bold, gboolean strikethrough) {
  GtkTextTag *tag = gtk_text_buffer_create_tag(buffer, name, NULL);
  if (foreground) g_object_set(tag, "foreground", foreground, NULL);
  if (background) g_object_set(tag, "background", background, NULL);
  if (bold) g_object_set(tag, "weight", PANGO_WEIGHT_BOLD, NULL);
  if (strikethrough) g_object_set(tag, "strikethrough", TRUE, NULL);
}

// MARK: - Accessibility

static inline void airframe_accessible_label(GtkWidget *widget, const char *label) {
  gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                 -1);
}

#endif
