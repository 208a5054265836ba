import { after, before } from 'node:test';
import { useTempDir } from './fixtures.ts';
import { servePage, type Site } from './site.ts';
import { closeAll, type Connected } from './server.ts';

/** What a test file about one page shares: the page served (from before its tests), the sessions it opened (all closed after) and a temp dir. */
export interface PageSuite {
  readonly site: Site;
  readonly servers: Connected[];
  readonly dirs: { readonly path: string };
}

/** Call at a test file's top level (or a describe block's body). */
export function usePageSuite(prefix: string, html: string): PageSuite {
  let site: Site | undefined;
  const suite = {
    dirs: useTempDir(prefix),
    servers: [] as Connected[],
    get site(): Site {
      if (!site) throw new Error('the page is not served yet (use the suite inside its tests)');
      return site;
    },
  };
  before(async () => {
    site = await servePage(html);
  });
  after(async () => {
    await closeAll(suite.servers);
    await site?.close();
  });
  return suite;
}
