// The ncursesw API for Swift: wide-character functions switched on, and small inline
// wrappers for what Swift cannot call directly (macros and variadic functions).
#ifndef AIRFRAME_CNCURSES_SHIM_H
#define AIRFRAME_CNCURSES_SHIM_H

#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <ncursesw/curses.h>

#endif
