/* openssl3_compat.c: lets Debian 12's libcivetweb (1.15) serve TLS with OpenSSL 3.
 *
 * That civetweb is built for OpenSSL 1.1's API and loads OpenSSL only when TLS is used:
 * dlopen("libssl.so"), dlopen("libcrypto.so"), then dlsym of each function it calls. One of
 * them, SSL_get_peer_certificate, is a macro in OpenSSL 3 (for SSL_get1_peer_certificate), not
 * an exported symbol: civetweb starts, and the first TLS connection calls a NULL pointer
 * (civetweb issue #1334). Built as a file named libssl.so in a folder of its own, this defines
 * that one function; every other lookup goes on to the real libssl.so.3 it depends on (dlsym
 * searches a library's dependencies). See README.md for the build lines, and how the server
 * finds this folder before the system's libssl.so. A civetweb built with OPENSSL_API_3_0
 * needs none of this.
 */
#include <openssl/ssl.h>

#undef SSL_get_peer_certificate /* OpenSSL 3's macro: the real function is defined here */
X509 *SSL_get_peer_certificate(const SSL *ssl);

/* As in OpenSSL 1.1, the caller owns a reference (civetweb frees it with X509_free). */
X509 *SSL_get_peer_certificate(const SSL *ssl) { return SSL_get1_peer_certificate(ssl); }
