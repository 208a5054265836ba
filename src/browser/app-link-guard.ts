import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../fs/write-atomic.ts';
import type { Logger } from '../log.ts';

// A link to an outside application (zoommtg:, slack:, tg:, itms-apps: ...)
// makes Chromium on Linux ask "Open xdg-open?" in a dialog of the tab, even
// headless, where nobody can see it; while it is open the tab takes no input:
// every later click "succeeds" and reaches nothing (the upstream too; a known
// problem of Chromium automation that no switch, route or policy per launch
// turns off). Before that dialog Chromium asks `xdg-settings check
// default-url-scheme-handler <scheme> <desktop file>` whether it handles the
// scheme itself, and drops the request silently when it does. This helper,
// first on the browser's PATH, says it does for every scheme but the three
// Chromium opens without asking (mailto, news, snews: they still go to the
// desktop's own handler, as with the upstream), and hands every other
// question to the real xdg-settings. No page can see any of it: the link just
// opens nothing, as in a browser whose user dismissed the dialog.

const SCRIPT = `#!/bin/sh
# stealth-playwright-mcp: see app-link-guard.ts. Chromium runs this instead of xdg-settings.
if [ "$1" = check ] && [ "$2" = default-url-scheme-handler ]; then
  case "$3" in mailto|news|snews) ;; *) echo yes; exit 0 ;; esac
fi
# Never itself again, whatever PATH holds.
[ -n "$STEALTH_PLAYWRIGHT_MCP_XDG_HELPER" ] && exit 1
export STEALTH_PLAYWRIGHT_MCP_XDG_HELPER=1
IFS=:
for dir in $PATH; do
  [ -x "$dir/xdg-settings" ] && ! [ "$dir/xdg-settings" -ef "$0" ] && exec "$dir/xdg-settings" "$@"
done
exit 1
`;

/**
 * Writes the helper into `<runtimeDir>/bin` (the runtime dir is private: the
 * browser runs what lies there) and puts that dir first on this process's
 * PATH, which every browser it starts inherits, the one started ahead too.
 * Without a shell there is nothing to run it: left out, as it is when the
 * dir cannot be written.
 */
export function guardAppLinks(runtimeDir: string, log: Logger): void {
  if (process.platform !== 'linux' || !fs.existsSync('/bin/sh')) return;
  const dir = path.join(runtimeDir, 'bin');
  const file = path.join(dir, 'xdg-settings');
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Atomic: a browser of another server on this runtime dir may run it meanwhile.
    if (readOrNone(file) !== SCRIPT) writeFileAtomicSync(file, SCRIPT, 0o700);
  } catch (error) {
    log.debug(`links to outside applications are left to Chromium's own dialog: ${(error as Error).message}`);
    return;
  }
  // An unset PATH means the system's default search to the programs Chromium runs; keep that.
  const rest = (process.env.PATH || '/usr/local/bin:/usr/bin:/bin').split(path.delimiter).filter((entry) => entry && entry !== dir);
  process.env.PATH = [dir, ...rest].join(path.delimiter);
}

function readOrNone(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
