/** The bundle's entry file for the sources as they are now, built first if needed (see bundle.mjs). */
export function cliBundle(): Promise<string>;

