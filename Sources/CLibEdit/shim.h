/*
 * The parts of libedit (NetBSD editline, package libedit-dev) that Patchbay uses.
 *
 * Only the native histedit.h API is used, never <editline/readline.h>: the readline
 * emulation keeps its state in globals. el_set, el_get and history() are C-variadic, which
 * Swift cannot call, so each use gets a fixed-arity static inline wrapper here. The C
 * globals stdin/stdout/stderr are reached through functions too, because Swift 6 rejects a
 * reference to a mutable C global as not concurrency-safe.
 */
#ifndef PATCHBAY_CLIBEDIT_SHIM_H
#define PATCHBAY_CLIBEDIT_SHIM_H

#include <stdio.h>
#include <wchar.h>
#include <histedit.h>

/* A prompt callback (EL_PROMPT_ESC). */
typedef char *(*shim_prompt_fn)(EditLine *);
/* An editor function (EL_ADDFN); returns one of the CC_* codes. */
typedef unsigned char (*shim_edit_fn)(EditLine *, int);

/* Terminal columns a character takes; glibc declares wcwidth only for _XOPEN_SOURCE. */
extern int wcwidth(wchar_t c);
static inline int shim_wcwidth(unsigned int c) { return wcwidth((wchar_t)c); }

static inline FILE *shim_stdin(void) { return stdin; }
static inline FILE *shim_stdout(void) { return stdout; }
static inline FILE *shim_stderr(void) { return stderr; }

/* The prompt; characters between two `escape` characters take no room on the screen. */
static inline int shim_el_set_prompt_esc(EditLine *el, shim_prompt_fn fn, char escape) {
    return el_set(el, EL_PROMPT_ESC, fn, escape);
}

/* "emacs" or "vi". */
static inline int shim_el_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}

static inline const char *shim_el_get_editor(EditLine *el) {
    const char *mode = NULL;
    if (el_get(el, EL_EDITOR, &mode) != 0) return NULL;
    return mode;
}

/* Whether libedit installs its own handlers while editing (resize, restore the tty). */
static inline int shim_el_set_signal(EditLine *el, int on) {
    return el_set(el, EL_SIGNAL, on);
}

static inline int shim_el_set_clientdata(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}

static inline void *shim_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    if (el_get(el, EL_CLIENTDATA, &data) != 0) return NULL;
    return data;
}

/* One `setty` flag for edit mode, e.g. "-isig" so that ^C reaches the editor as a key. */
static inline int shim_el_settty_edit(EditLine *el, const char *flag) {
    return el_set(el, EL_SETTY, "-d", flag, NULL);
}

static inline int shim_el_addfn(EditLine *el, const char *name, const char *help, shim_edit_fn fn) {
    return el_set(el, EL_ADDFN, name, help, fn);
}

/* Binds a key sequence (editrc syntax, e.g. "^I" or "\\e[A") in the main key map. */
static inline int shim_el_bind(EditLine *el, const char *key, const char *function) {
    return el_set(el, EL_BIND, key, function, NULL);
}

/* The same in the alternate map (vi command mode). */
static inline int shim_el_bind_alternate(EditLine *el, const char *key, const char *function) {
    return el_set(el, EL_BIND, "-a", key, function, NULL);
}

static inline int shim_el_set_history(EditLine *el, History *h) {
    return el_set(el, EL_HIST, history, h);
}

/* The function that reads a character (EL_GETCFN); NULL puts back libedit's own. */
static inline int shim_el_set_getcfn(EditLine *el, el_rfunc_t fn) {
    return el_set(el, EL_GETCFN, fn == NULL ? EL_BUILTIN_GETCFN : fn);
}

/* Redraws the prompt and the line being edited (EL_REFRESH). */
static inline int shim_el_refresh(EditLine *el) {
    return el_set(el, EL_REFRESH);
}

/* Terminal width as libedit knows it (kept current on resize with EL_SIGNAL); 0 if unknown. */
static inline int shim_el_columns(EditLine *el) {
    int columns = 0;
    if (el_get(el, EL_GETTC, "co", &columns, NULL) != 0) return 0;
    return columns;
}

static inline int shim_history_setsize(History *h, HistEvent *ev, int size) {
    return history(h, ev, H_SETSIZE, size);
}

/* Drop an entry equal to the one before it. */
static inline int shim_history_setunique(History *h, HistEvent *ev, int unique) {
    return history(h, ev, H_SETUNIQUE, unique);
}

static inline int shim_history_enter(History *h, HistEvent *ev, const char *line) {
    return history(h, ev, H_ENTER, line);
}

static inline int shim_history_load(History *h, HistEvent *ev, const char *path) {
    return history(h, ev, H_LOAD, path);
}

static inline int shim_history_save(History *h, HistEvent *ev, const char *path) {
    return history(h, ev, H_SAVE, path);
}

/* The newest entry, then older ones; NULL past the oldest. */
static inline const char *shim_history_first(History *h, HistEvent *ev) {
    return history(h, ev, H_FIRST) == 0 ? ev->str : NULL;
}

static inline const char *shim_history_next(History *h, HistEvent *ev) {
    return history(h, ev, H_NEXT) == 0 ? ev->str : NULL;
}

#endif
