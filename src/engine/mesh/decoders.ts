/**
 * Where the app serves three's Draco decoder and Basis transcoder (see src/build/decodersPlugin.ts). Under
 * the app's base URL, so a build deployed below the site root still finds them.
 */
export function decoderPath(kind: 'draco' | 'basis'): string {
  const base = import.meta.env?.BASE_URL ?? '/';
  return `${base.endsWith('/') ? base : `${base}/`}decoders/${kind}/`;
}
