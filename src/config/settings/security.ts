import { boolean } from '../kinds.ts';
import { setting } from './setting.ts';

// Tools that are off over HTTP unless the operator opts in.
export const securitySettings = {
  allowUnsafeCode: setting({
    flag: 'allow-unsafe-code',
    env: 'STEALTH_PLAYWRIGHT_MCP_ALLOW_UNSAFE_CODE',
    kind: boolean,
    help: 'Offer `browser_run_code_unsafe`, which runs client-supplied code inside this server process. Unset: offered over stdio (the local user who started the server, as Playwright MCP does), hidden over HTTP',
    section: 'security',
  }),
};
