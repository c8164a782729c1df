/* message.c — the status-and-message record shared by every object. */
#include <stdio.h>
#include "tbrf.h"
#include "core/message.h"

void tbrfi_message_clear(tbrfi_message *m)
{
    m->status = TBRF_OK;
    m->text[0] = '\0';
}

int tbrfi_failv(tbrfi_message *m, int status, const char *fmt, va_list ap)
{
    vsnprintf(m->text, sizeof m->text, fmt, ap);
    m->status = status;
    return status;
}

int tbrfi_fail(tbrfi_message *m, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tbrfi_failv(m, status, fmt, ap);
    va_end(ap);
    return status;
}

const char *tbrfi_message_text(const tbrfi_message *m)
{
    return m ? m->text : "";
}
