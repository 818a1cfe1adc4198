// Minimal cookie access for the three client values SPEC §9 names.
export function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

export function writeCookie(name: string, value: string): void {
  // Session cookies (no expiry): the console's session ends with the browser. Over HTTPS they never travel in clear (Secure).
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; SameSite=Strict${location.protocol == 'https:' ? '; Secure' : ''}`;
}

export function removeCookie(name: string): void {
  document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}
