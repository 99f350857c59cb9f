/**
 * What a reference inside a scan file (a glTF buffer or image `uri`, an OBJ `mtllib`, an MTL
 * texture map) points at. A scan is the files the user picked: only inline `data:` URIs and names
 * of those files may be resolved. Anything that is an address somewhere else (any URL scheme,
 * `//host/…`, `\\server\…`) is never requested, however it is spelled: a hostile scan must not
 * make the browser reach out (to a tracker, a local service, the app's own origin).
 */
export type RefKind = 'data' | 'name' | 'address';

export function refKind(ref: string): RefKind {
  // As a URL parser sees it: surrounding spaces and controls trimmed, tabs and newlines anywhere dropped.
  const s = ref.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  if (/^data:/i.test(s)) return 'data';
  // A scheme of two or more letters (http:, blob:, file:, javascript:…); `C:\…` is a Windows path.
  if (/^[a-z][a-z0-9+.-]+:/i.test(s)) return 'address';
  // Protocol-relative (`//host/x.png`), or a UNC path the URL parser would also take as a host.
  if (/^[/\\]{2}/.test(s)) return 'address';
  return 'name';
}

/** The reason a reference is refused: `<where> "<ref>" is not a file you picked; …`. */
export function notPicked(where: string, ref: string): string {
  return `${where} ${quoteRef(ref)} is not a file you picked; scans never fetch from the network`;
}

/** A reference as it can safely go into a one-line message: quoted, controls escaped, long ones cut. */
export function quoteRef(ref: string, max = 120): string {
  const cut = ref.length > max ? `${ref.slice(0, max)}…` : ref;
  // Controls and bidi overrides could rewrite the line they are shown in (a terminal, the scan bar).
  return `"${cut.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** At most `max` of many similar warnings, and a line saying how many more there were. */
export function capWarnings(lines: string[], max: number, more: (n: number) => string): string[] {
  return lines.length <= max ? lines : [...lines.slice(0, max), more(lines.length - max)];
}
