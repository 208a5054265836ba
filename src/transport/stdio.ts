import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Logger } from '../log.ts';
import type { BridgeSession } from '../session/bridge-session.ts';
import { onShutdown } from './shutdown.ts';

/** One session on stdin/stdout; ends (exit 0) when stdin closes or on a signal. */
export async function serveStdio(session: BridgeSession, log: Logger): Promise<void> {
  const shutdown = onShutdown(() => session.close(), log);
  await session.start();
  const transport = new StdioServerTransport();
  transport.onclose = () => shutdown('transport closed');
  process.stdin.on('end', () => shutdown('stdin closed'));
  process.stdin.on('close', () => shutdown('stdin closed'));
  await session.server.connect(transport);
  log.debug(`session ${session.id} ready on stdio`);
}
