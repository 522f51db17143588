/* The chat page GET / serves: one self-contained HTML document (no external script, style or font) that
 * talks to this server's /v1/chat/completions with streaming, shows the served model's name, stops an
 * answer on request and reports the last answer's tokens per second. The model's text is put on the
 * page as text, never as markup. tests/server/chat_page_test.py drives it in headless Chromium. */
#ifndef MX_SERVER_CHAT_PAGE_H
#define MX_SERVER_CHAT_PAGE_H

extern const char mx_chat_page_html[];

#endif
