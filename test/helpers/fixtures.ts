import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Connected } from './server.ts';
import { startSite, type Site } from './site.ts';

/** The local test site for the enclosing suite: started before it, closed after. */
export function useSite(): Site {
  let site: Site | undefined;
  before(async () => {
    site = await startSite();
  });
  after(async () => {
    await site?.close();
  });
  return {
    get url() {
      return site!.url;
    },
    close: () => site?.close() ?? Promise.resolve(),
  };
}

/**
 * A private temporary directory for the enclosing suite (the servers' output
 * dir). Removed when the test process exits: `after` hooks run in the order
 * they were registered, so one registered here would run before the suite's
 * own hooks had stopped the servers (and their browsers) still writing to it.
 */
export function useTempDir(prefix: string): { readonly path: string } {
  let dir: string | undefined;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    process.once('exit', () => fs.rmSync(dir!, { recursive: true, force: true, maxRetries: 3 }));
  });
  return {
    get path() {
      return dir!;
    },
  };
}

/** A session of ours for the enclosing suite: `start` opens it before the suite; after it the client is closed and the server's exit awaited. */
export function useSession(start: () => Promise<Connected>): Connected {
  let session: Connected | undefined;
  before(async () => {
    session = await start();
  });
  after(async () => {
    await session?.client.close();
    await session?.transport.exit;
  });
  return {
    get client() {
      return session!.client;
    },
    get transport() {
      return session!.transport;
    },
  };
}

/**
 * What a server's browsers may leave in TMPDIR when something of ours fails to remove it: a
 * throwaway profile, Chromium's singleton-socket dir, the TMPDIR of a browser making a profile
 * template (profile-template.ts).
 */
export function leftInTmp(dir: string): string[] {
  return fs.readdirSync(dir).filter((name) => ['playwright_chromiumdev_profile-', 'org.chromium.Chromium.', 'spm-template-'].some((prefix) => name.startsWith(prefix)));
}
