import { after, before } from 'node:test';
import { useTempDir } from './fixtures.ts';
import { servePage, type Site } from './site.ts';
import { closeAll, type Connected } from './server.ts';

/** What the tests of one served site share: the site (started before them), the sessions they opened (all closed after) and an output dir. */
export interface SiteSuite<S> {
  readonly output: { readonly path: string };
  readonly servers: Connected[];
  readonly site: S;
}

/** Call at a test file's top level or in a describe block's body. */
export function useSiteSuite<S extends { close(): Promise<void> }>(prefix: string, start: () => Promise<S>): SiteSuite<S> {
  let site: S | undefined;
  const suite = {
    output: useTempDir(prefix),
    servers: [] as Connected[],
    get site(): S {
      if (!site) throw new Error('the site is not started yet (use the suite inside its tests)');
      return site;
    },
  };
  before(async () => {
    site = await start();
  });
  after(async () => {
    await closeAll(suite.servers);
    await site?.close();
  });
  return suite;
}

/** One page served at every path. */
export const usePageSuite = (prefix: string, html: string): SiteSuite<Site> => useSiteSuite(prefix, () => servePage(html));
