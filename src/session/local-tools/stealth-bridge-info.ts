import { PACKAGE_NAME, PACKAGE_VERSION, UPSTREAM_PACKAGE, UPSTREAM_VERSION } from '../../package-info.ts';
import { runtimeInfo } from '../../runtime.ts';
import { defineLocalTool } from './local-tool.ts';
import { unsafeCodeAllowed } from '../tool-policy.ts';

export const stealthBridgeInfo = defineLocalTool(
  'stealth_bridge_info',
  'Bridge and session info',
  'About this MCP server and this session: name, version, runtime, transport, browser engine, the embedded Playwright MCP version and tool count, local tools, session id, headless mode, whether the browser is running, its launch profile (stealth fingerprint seed and flags, sandbox, console fallback), its proxy (credentials masked), GeoIP match, persistent profile, extensions and context options, the CDP (DevTools) URL of this session when managed CDP is on, and, under --shared-browser-context, how many sessions share the one browser context.',
  (facts) => {
    const runtime = runtimeInfo();
    return {
      name: PACKAGE_NAME,
      version: PACKAGE_VERSION,
      runtime: { name: runtime.name, version: runtime.version },
      transport: facts.transport,
      replica: facts.config.httpReplicaId ?? null,
      engine: facts.config.browserEngine,
      upstream: { package: UPSTREAM_PACKAGE, version: UPSTREAM_VERSION, toolCount: facts.upstreamToolCount() ?? null },
      localTools: facts.localToolNames,
      unsafeCodeAllowed: unsafeCodeAllowed(facts.config),
      session: {
        id: facts.id,
        headless: facts.config.headless,
        outputDir: facts.outputDir,
        files: facts.files?.() ?? null,
        browserRunning: facts.browserRunning(),
        launch: facts.browserProfile(),
        ...facts.identity?.(),
      },
      cdp: facts.cdp(),
      warmPool: facts.pool?.() ?? null,
      sharedContext: facts.shared?.() ?? null,
    };
  },
);
