// Browser tests drive Debian's Chromium (never a downloaded one). Install it when missing.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);
console.log(`Chromium is not at ${path}; installing Debian's chromium package for the browser tests…`);
const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
try {
  execSync(`${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null`, { stdio: 'inherit' });
} catch {
  console.error(`Could not install Chromium. Install it with "apt-get install -y chromium" or set CHROMIUM_PATH, then run the tests again.`);
  process.exit(1);
}
if (!existsSync(path)) {
  console.error(`Chromium was installed but is not at ${path}; set CHROMIUM_PATH.`);
  process.exit(1);
}
