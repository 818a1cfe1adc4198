/* console_access.h: who the web console answers, in plain C99 (no server API), for
 * console_server.c and for any other server a terminal runs: build/serving.ts's
 * hostAllowed and originAllowed, and the access file the firmware writes from
 * RestParam (docs/EMBEDDING.md, "Host names and HTTPS"):
 *
 *   # comment
 *   protocol 1              0: HTTP and HTTPS both serve; 1: HTTPS only
 *   name terminal.example   one line per name the administrator added (at most 8)
 */
#ifndef CONSOLE_ACCESS_H
#define CONSOLE_ACCESS_H

#include <stddef.h>

#define CONSOLE_ACCESS_NAMES_MAX 8
#define CONSOLE_ACCESS_NAME_MAX 63

struct console_access {
  int protocol; /* RestParam.Protocol: 0 or 1 */
  int count;    /* names in use */
  char names[CONSOLE_ACCESS_NAMES_MAX][CONSOLE_ACCESS_NAME_MAX + 1]; /* lower case, no trailing dot */
};

/* Read the access file into *a. A missing file is the factory state (no names, Protocol 0) and
 * answers 0; a line that is not one of the above (a name that is not a DNS name, a ninth name) is
 * skipped. Answers -1 only when the file exists but cannot be read. */
int console_access_read(const char *path, struct console_access *a);

/* The Host header's name without its port, lower case, into out (size bytes): "192.168.1.5",
 * "[fe80::1]", "terminal.example". Answers 0, or -1 when host is not a Host at all. */
int console_host_name(const char *host, char *out, size_t size);

/* 1 when the console answers this Host: an IPv4 literal, an IPv6 literal in brackets, localhost,
 * or one of a's names (without case; a trailing dot is the same name). NULL: 0. */
int console_host_allowed(const char *host, const struct console_access *a);

/* 1 when a call with this Origin may go on: no Origin (NULL), or scheme://host[:port] (http or
 * https) naming the Host header, the scheme's default port spelt out or left out. */
int console_origin_allowed(const char *origin, const char *host);

#endif /* CONSOLE_ACCESS_H */
