// The ncursesw API for Swift: wide-character functions switched on, and small inline
// wrappers for what Swift cannot call directly (macros, variadic functions, C globals
// that Swift 6 treats as shared mutable state) and for the signal handlers (crash signals,
// SIGWINCH), which must be C: they run inside a signal handler, where Swift code could
// allocate or lock.
//
// Every wrapper is a plain call of the ncurses or POSIX function it names; none keeps state
// except the two handler sets below. `airframe_install_restore_handlers` and its handler
// keep the signals' previous actions in a function-local static, and the SIGWINCH handler
// keeps its pipe in one. Each Swift object file that uses this header gets its own copy of
// these static inline functions, so install and remove each set from one Swift file.
#ifndef AIRFRAME_CNCURSES_SHIM_H
#define AIRFRAME_CNCURSES_SHIM_H

#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <ncursesw/curses.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

// MARK: - Screen

/// Turns the terminal's bracketed paste mode (DECSET 2004) on or off with one write(2),
/// which is async-signal-safe, so the restore handler can turn it off too.
static inline void airframe_bracketed_paste(bool on) {
  ssize_t written = write(STDOUT_FILENO, on ? "\033[?2004h" : "\033[?2004l", 8);
  (void)written;
}

/// Starts ncurses on standard output and input with the terminal type of `$TERM`.
/// Returns NULL (and never exits the process, unlike initscr) when that fails.
static inline SCREEN *airframe_newterm(void) { return newterm(NULL, stdout, stdin); }

/// The standard screen window (a C global, which Swift 6 will not read directly).
static inline WINDOW *airframe_stdscr(void) { return stdscr; }

/// The window of what ncurses believes the terminal shows (a C global, like stdscr).
static inline WINDOW *airframe_curscr(void) { return curscr; }

/// The terminal's size from the kernel (TIOCGWINSZ; ioctl is variadic).
/// Returns 0 on success, -1 with errno set otherwise.
static inline int airframe_window_size(int fd, int *rows, int *columns) {
  struct winsize size;
  if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
  *rows = size.ws_row;
  *columns = size.ws_col;
  return 0;
}

// MARK: - Attributes (macros in curses.h)

static inline attr_t airframe_attribute_bold(void) { return A_BOLD; }
static inline attr_t airframe_attribute_reverse(void) { return A_REVERSE; }
static inline attr_t airframe_attribute_dim(void) { return A_DIM; }
static inline attr_t airframe_attribute_underline(void) { return A_UNDERLINE; }

// MARK: - Restoring the terminal when a signal ends the process

/// The signals whose default action ends the process while the screen is in curses mode.
static inline const int *airframe_restore_signals(int *count) {
  static const int signals[] = {
    SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP,
  };
  *count = (int)(sizeof signals / sizeof signals[0]);
  return signals;
}

/// The actions the signals had before `airframe_install_restore_handlers`, by number.
static inline struct sigaction *airframe_previous_actions(void) {
  static struct sigaction previous[NSIG];
  return previous;
}

/// Whether `airframe_previous_actions()[signo]` holds an action to put back, by number.
static inline volatile sig_atomic_t *airframe_installed_flags(void) {
  static volatile sig_atomic_t installed[NSIG];
  return installed;
}

/// Whether a signal is a fault the kernel raised for an instruction (SIGSEGV, SIGBUS,
/// SIGILL, SIGFPE with a positive si_code): returning from its handler runs the same
/// instruction again, which raises it again. Everything else, including a fault signal
/// sent with kill (si_code <= 0) and a SIGHUP the kernel sends when the terminal hangs up
/// (SI_KERNEL, positive), does not come back by itself.
static inline bool airframe_signal_is_fault(int signo, const siginfo_t *info) {
  if (info == NULL || info->si_code <= 0) return false;
  return signo == SIGSEGV || signo == SIGBUS || signo == SIGILL || signo == SIGFPE;
}

/// The handler: puts the signal's previous action back (the kernel already did, through
/// SA_RESETHAND, when that action was the default), restores the terminal with
/// endwin(), and lets the signal take its course. A fault happens again when the
/// faulting instruction runs again; any other signal is raised again and arrives when the
/// handler returns. Either way the previous action (usually the default: die, or the
/// Swift runtime's backtracer) sees it. The other restore signals are blocked meanwhile.
static inline void airframe_restore_terminal_handler(int signo, siginfo_t *info, void *context) {
  (void)context;
  if (signo > 0 && signo < NSIG && airframe_installed_flags()[signo]) {
    // A previous default action was put back by the kernel (SA_RESETHAND) on the way in;
    // only a previous handler (the Swift runtime's backtracer) needs sigaction here. Not
    // calling sigaction in the common case also keeps clear of ThreadSanitizer, whose
    // sigaction takes a lock the interrupted code may hold.
    const struct sigaction *previous = &airframe_previous_actions()[signo];
    bool wasDefault = !(previous->sa_flags & SA_SIGINFO) && previous->sa_handler == SIG_DFL;
    if (!wasDefault) sigaction(signo, previous, NULL);
    airframe_installed_flags()[signo] = 0;
  } else {
    signal(signo, SIG_DFL);
  }
  if (!isendwin()) {
    airframe_bracketed_paste(false);
    endwin();
  }
  if (!airframe_signal_is_fault(signo, info)) raise(signo);
}

/// Installs the handler for every restore signal whose action is not "ignore" (a signal
/// the caller's parent chose to ignore, such as SIGHUP under nohup, stays ignored).
static inline void airframe_install_restore_handlers(void) {
  int count = 0;
  const int *signals = airframe_restore_signals(&count);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = airframe_restore_terminal_handler;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  for (int index = 0; index < count; index++) sigaddset(&action.sa_mask, signals[index]);
  for (int index = 0; index < count; index++) {
    int signo = signals[index];
    struct sigaction previous;
    if (sigaction(signo, NULL, &previous) != 0) continue;
    if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler == SIG_IGN) continue;
    airframe_previous_actions()[signo] = previous;
    airframe_installed_flags()[signo] = 1;
    bool wasDefault = !(previous.sa_flags & SA_SIGINFO) && previous.sa_handler == SIG_DFL;
    action.sa_flags = SA_SIGINFO | (wasDefault ? SA_RESETHAND : 0);
    sigaction(signo, &action, NULL);
  }
}

/// Puts back the actions `airframe_install_restore_handlers` replaced.
static inline void airframe_remove_restore_handlers(void) {
  int count = 0;
  const int *signals = airframe_restore_signals(&count);
  for (int index = 0; index < count; index++) {
    int signo = signals[index];
    if (!airframe_installed_flags()[signo]) continue;
    airframe_installed_flags()[signo] = 0;
    sigaction(signo, &airframe_previous_actions()[signo], NULL);
  }
}

// MARK: - Size changes

/// The pipe a SIGWINCH is reported through: [0] the read end, [1] the write end; -1 when
/// closed.
static inline int *airframe_resize_pipe(void) {
  static int ends[2] = {-1, -1};
  return ends;
}

/// The SIGWINCH handler: writes one byte to the pipe (write(2) is async-signal-safe; a
/// full pipe already holds a wake-up, so a failed write loses nothing) and keeps errno.
static inline void airframe_resize_handler(int signo) {
  (void)signo;
  int saved = errno;
  char byte = 1;
  (void)write(airframe_resize_pipe()[1], &byte, 1);
  errno = saved;
}

/// Opens the pipe (non-blocking, close-on-exec) and installs `airframe_resize_handler`
/// for SIGWINCH, at once: a size change from this moment on waits in the pipe until it is
/// read, however late the reader starts. Returns the read end, or -1 with errno set.
/// Called before ncurses starts, so ncurses (which only replaces a default action)
/// installs no SIGWINCH handler of its own.
static inline int airframe_install_resize_handler(void) {
  int *ends = airframe_resize_pipe();
  if (pipe(ends) != 0) return -1;
  for (int index = 0; index < 2; index++) {
    fcntl(ends[index], F_SETFL, fcntl(ends[index], F_GETFL) | O_NONBLOCK);
    fcntl(ends[index], F_SETFD, FD_CLOEXEC);
  }
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = airframe_resize_handler;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  if (sigaction(SIGWINCH, &action, NULL) != 0) {
    int saved = errno;
    close(ends[0]);
    close(ends[1]);
    ends[0] = ends[1] = -1;
    errno = saved;
    return -1;
  }
  return ends[0];
}

/// Puts SIGWINCH's default action back and closes the pipe's write end. The read end is
/// the caller's to close, once nothing watches it any more.
static inline void airframe_remove_resize_handler(void) {
  signal(SIGWINCH, SIG_DFL);
  int *ends = airframe_resize_pipe();
  // Forgotten before it is closed: a handler still running on another thread writes to
  // -1 (EBADF), never to a descriptor the number is reused for.
  int write_end = ends[1];
  ends[0] = ends[1] = -1;
  if (write_end >= 0) close(write_end);
}

/// Reads everything waiting in the resize pipe's read end `fd`, so one read answers all
/// the size changes reported so far.
static inline void airframe_drain_resize_pipe(int fd) {
  char bytes[64];
  while (read(fd, bytes, sizeof bytes) > 0) {}
}

/// Restores the terminal at exit if the program exits without stopping the screen.
static inline void airframe_restore_terminal_at_exit(void) {
  if (!isendwin()) {
    airframe_bracketed_paste(false);
    endwin();
  }
}

/// Registers `airframe_restore_terminal_at_exit` with atexit. Returns 0 on success.
static inline int airframe_register_exit_restore(void) {
  return atexit(airframe_restore_terminal_at_exit);
}

#endif
