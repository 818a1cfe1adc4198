/* console_access.c: see console_access.h. The same rules as build/serving.ts (hostAllowed,
 * originAllowed) and lighttpd's access.lua; tests/servers checks all three through the servers. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "console_access.h"

/* Lower-case copy of s[0..n) into out (size bytes); -1 when it does not fit. */
static int lower_copy(const char *s, size_t n, char *out, size_t size) {
  size_t i;
  if (n >= size) return -1;
  for (i = 0; i < n; i++) out[i] = (char)tolower((unsigned char)s[i]);
  out[n] = '\0';
  return 0;
}

/* DNS labels of letters, digits and hyphens, dot-separated, 1 to 63 characters (HOST_NAME_PATTERN). */
static int is_dns_name(const char *s) {
  size_t n = strlen(s), i, label = 0;
  if (n == 0 || n > CONSOLE_ACCESS_NAME_MAX) return 0;
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '.') {
      if (label == 0 || s[i - 1] == '-') return 0;
      label = 0;
    } else if (isalnum(c) || (c == '-' && label > 0)) {
      label++;
    } else {
      return 0;
    }
  }
  return label > 0 && s[n - 1] != '-';
}

int console_access_read(const char *path, struct console_access *a) {
  char line[256];
  FILE *f = fopen(path, "r");

  memset(a, 0, sizeof *a);
  if (f == NULL) return 0; /* the factory state */
  while (fgets(line, sizeof line, f) != NULL) {
    char key[16], value[128], extra[2];
    int fields = sscanf(line, "%15s %127s %1s", key, value, extra);
    if (fields != 2) continue;
    if (strcmp(key, "protocol") == 0) {
      a->protocol = strcmp(value, "1") == 0;
    } else if (strcmp(key, "name") == 0 && a->count < CONSOLE_ACCESS_NAMES_MAX) {
      size_t n = strlen(value);
      if (n > 1 && value[n - 1] == '.') value[--n] = '\0';
      if (is_dns_name(value)) lower_copy(value, n, a->names[a->count++], CONSOLE_ACCESS_NAME_MAX + 1);
    }
  }
  if (ferror(f)) {
    fclose(f);
    return -1;
  }
  fclose(f);
  return 0;
}

int console_host_name(const char *host, char *out, size_t size) {
  const char *end, *p;
  size_t n;

  if (host == NULL) return -1;
  while (*host == ' ' || *host == '\t') host++;
  n = strlen(host);
  while (n > 0 && (host[n - 1] == ' ' || host[n - 1] == '\t')) n--;
  if (host[0] == '[') {
    end = memchr(host, ']', n);
    if (end == NULL) return -1;
    end++;
  } else {
    for (end = host; end < host + n && *end != ':'; end++)
      if (*end == '[' || *end == ']') return -1;
  }
  if (end == host) return -1;
  if (end < host + n) { /* ":port", 1 to 5 digits */
    if (*end != ':' || host + n - (end + 1) < 1 || host + n - (end + 1) > 5) return -1;
    for (p = end + 1; p < host + n; p++)
      if (!isdigit((unsigned char)*p)) return -1;
  }
  return lower_copy(host, (size_t)(end - host), out, size);
}

/* Four decimal octets, 0 to 255, without leading zeros. */
static int is_ipv4(const char *s) {
  int octets = 0;
  while (octets < 4) {
    int value = 0, digits = 0;
    while (isdigit((unsigned char)*s)) {
      if (digits == 1 && value == 0) return 0;
      value = value * 10 + (*s++ - '0');
      if (++digits > 3 || value > 255) return 0;
    }
    if (digits == 0) return 0;
    octets++;
    if (octets < 4 && *s++ != '.') return 0;
  }
  return *s == '\0';
}

/* [hex digits, colons and dots], optionally with a zone: %25 and unreserved characters. */
static int is_ipv6(const char *s) {
  size_t n = strlen(s), i = 1, start;
  if (n < 3 || s[0] != '[' || s[n - 1] != ']') return 0;
  while (i < n - 1 && (isxdigit((unsigned char)s[i]) || s[i] == ':' || s[i] == '.')) i++;
  if (i == 1) return 0;
  if (i == n - 1) return 1;
  if (strncmp(s + i, "%25", 3) != 0) return 0;
  for (start = i += 3; i < n - 1; i++)
    if (!isalnum((unsigned char)s[i]) && strchr("._~-", s[i]) == NULL) return 0;
  return i > start;
}

int console_host_allowed(const char *host, const struct console_access *a) {
  char name[300];
  size_t n;
  int i;

  if (console_host_name(host, name, sizeof name) != 0) return 0;
  n = strlen(name);
  if (n > 0 && name[n - 1] == '.') name[--n] = '\0';
  if (n == 0) return 0;
  if (is_ipv4(name) || is_ipv6(name) || strcmp(name, "localhost") == 0) return 1;
  for (i = 0; i < a->count; i++)
    if (strcmp(name, a->names[i]) == 0) return 1;
  return 0;
}

int console_origin_allowed(const char *origin, const char *host) {
  char o[300], own[300], with_port[320], with_default[320];
  const char *name, *end, *port = NULL, *default_port;
  size_t n;

  if (origin == NULL) return 1;
  if (host == NULL || lower_copy(origin, strlen(origin), o, sizeof o) != 0) return 0;
  if (strncmp(o, "http://", 7) == 0) {
    name = o + 7;
    default_port = "80";
  } else if (strncmp(o, "https://", 8) == 0) {
    name = o + 8;
    default_port = "443";
  } else {
    return 0; /* "null", another scheme */
  }
  end = name[0] == '[' ? strchr(name, ']') : name + strcspn(name, ":/[]");
  if (end == NULL || end == name) return 0;
  if (name[0] == '[') end++;
  if (*end == ':') {
    port = end + 1;
    if (*port == '\0' || strspn(port, "0123456789") != strlen(port)) return 0;
    if (strcmp(port, default_port) == 0) port = NULL;
  } else if (*end != '\0') {
    return 0; /* a path, a user: not an origin */
  }
  while (*host == ' ' || *host == '\t') host++;
  if (lower_copy(host, strlen(host), own, sizeof own) != 0) return 0;
  for (n = strlen(own); n > 0 && (own[n - 1] == ' ' || own[n - 1] == '\t');) own[--n] = '\0';
  n = (size_t)(end - name);
  snprintf(with_port, sizeof with_port, "%.*s%s%s", (int)n, name, port ? ":" : "", port ? port : "");
  snprintf(with_default, sizeof with_default, "%.*s:%s", (int)n, name, port ? port : default_port);
  return strcmp(own, with_port) == 0 || strcmp(own, with_default) == 0;
}
