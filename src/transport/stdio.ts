import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Logger } from '../log.ts';
import type { BridgeSession } from '../session/bridge-session.ts';
import { onShutdown } from './shutdown.ts';

/** One session on stdin/stdout; ends (exit 0) when stdin closes or on a signal. */
export async function serveStdio(session: BridgeSession, transport: Transport, log: Logger): Promise<void> {
  const shutdown = onShutdown(() => session.close(), log);
  // A session that cannot start fails the process (non-zero exit), even when
  // stdin has already ended: only then does EOF mean a clean stop.
  await session.start();
  transport.onclose = () => shutdown('transport closed');
  process.stdin.on('end', () => shutdown('stdin closed'));
  process.stdin.on('close', () => shutdown('stdin closed'));
  if (process.stdin.readableEnded) shutdown('stdin closed');
  await session.server.connect(transport);
  log.debug(`session ${session.id} ready on stdio`);
}
