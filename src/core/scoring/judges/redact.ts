/**
 * The one redaction of the HTTP judge's secrets. Everything the judge layer hands on — verdict
 * explanations, errors (which quote replies and URLs), and so the cache entries made from them —
 * passes through it, because an endpoint may echo what it was sent: its Authorization header, a
 * key given in the URL, or a URL that failed to parse quoted whole in the error.
 *
 * Two nets: the exact secrets we know (the key, the URL's userinfo and secret-looking query
 * values, raw, percent-encoded and JSON-escaped), and the shapes a credential takes in text whatever
 * its value (`Bearer <token>`, `//user:pass@`, `?key=…`), so a secret we were not told about is
 * caught when it is written the way credentials are written.
 */
export const REDACTED = '***';

/** Query parameters whose values are credentials (`?key=…`, Azure's `api-key`, signed URLs' `sig`…). */
const SECRET_PARAM = /^(?:key|api[-_]?key|apikey|token|access[-_]?token|auth|password|secret|sig|signature)$/i;
const SECRET_PARAM_IN_TEXT = /([?&;](?:key|api[-_]?key|apikey|token|access[-_]?token|auth|password|secret|sig|signature)=)[^&#\s"'<>]+/gi;
/** A bearer token as headers write it (8+ token characters, so prose such as "bearer of" survives). */
const BEARER = /\b(Bearer)(\s+)[\w.~+/=-]{8,}/gi;
const USERINFO = /(\/\/)[^/?#@\s"']+@/g;
/** Shorter strings are too common to cut out of text (a one-letter "key" would blank every such letter). */
const MIN_SECRET = 4;

/** The secrets in an endpoint URL, read without parsing it (a URL that does not parse must be redacted too). */
export function urlSecrets(url: string): string[] {
  const out: string[] = [];
  const userinfo = /\/\/([^/?#@\s]+)@/.exec(url)?.[1];
  if (userinfo) {
    out.push(userinfo);
    const colon = userinfo.indexOf(':');
    // user:password — the password is the secret; a bare userinfo is a token.
    if (colon >= 0) out.push(userinfo.slice(colon + 1));
  }
  const query = url.split('#')[0]!.split('?').slice(1).join('?');
  for (const pair of query.split(/[&;]/)) {
    const eq = pair.indexOf('=');
    if (eq > 0 && SECRET_PARAM.test(safeDecode(pair.slice(0, eq)))) out.push(pair.slice(eq + 1));
  }
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A function that removes the given secrets (and anything written as a credential) from a text. */
export function secretRedactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const exact = new Set<string>();
  for (const s of secrets) {
    if (!s) continue;
    for (const form of [s, safeDecode(s), encodeURIComponent(s), JSON.stringify(s).slice(1, -1)]) if (form.length >= MIN_SECRET) exact.add(form);
  }
  // Longest first, so a secret that contains another is cut whole.
  const ordered = [...exact].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const s of ordered) if (out.includes(s)) out = out.split(s).join(REDACTED);
    return out.replace(BEARER, `$1$2${REDACTED}`).replace(USERINFO, `$1${REDACTED}@`).replace(SECRET_PARAM_IN_TEXT, `$1${REDACTED}`);
  };
}
