/* message.h — the one status-and-message record every library object
 * (model, plan, driver, inflow sampler, writer) keeps: the last status and
 * its one-line message, read through the object's tbrf_*_message(). Not
 * installed. */
#ifndef TBRF_CORE_MESSAGE_H
#define TBRF_CORE_MESSAGE_H

#include <stdarg.h>

/* Long enough for a path, an option's value and a reason on one line. */
#define TBRFI_MESSAGE_SIZE 1024

typedef struct tbrfi_message {
    int status;                     /* the last call's status (TBRF_OK after a success) */
    char text[TBRFI_MESSAGE_SIZE];  /* its message; "" after a success */
} tbrfi_message;

/* Forgets the last failure: status TBRF_OK, empty text. */
void tbrfi_message_clear(tbrfi_message *m);

/* Records a failure: sets the status and the printf-formatted text
 * (truncated to fit) and returns `status`, so a caller can write
 * `return tbrfi_fail(&o->msg, TBRF_ERR_INVALID, "...", ...)`. */
int tbrfi_fail(tbrfi_message *m, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* tbrfi_fail with a va_list, for objects that wrap it. */
int tbrfi_failv(tbrfi_message *m, int status, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* The text ("" when the last call succeeded); never NULL. */
const char *tbrfi_message_text(const tbrfi_message *m);

#endif
