/**
 * How this project starts Debian's Chromium headless (`cli tour`, and the browser tests): where it
 * is, and the flags measured to give a WebGL2 context on these machines (see the platform notes)
 * without the background networking a closed network refuses.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Debian's Chromium, or the one CHROMIUM_PATH names. */
export const chromiumPath = (): string => process.env.CHROMIUM_PATH || '/usr/bin/chromium';
