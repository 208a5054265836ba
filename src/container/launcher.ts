import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import type { Config } from '../config/settings.ts';
import type { Logger } from '../log.ts';
import { ControlServer } from './control-server.ts';
import { Display } from './display.ts';
import { HealthServer, type HealthReport } from './health-server.ts';
import { CONTROL_ENV } from './protocol.ts';
import { serverCommand } from './server-command.ts';
import { stopChild } from './stop-child.ts';

/** Health thresholds (issue 7): the server's event loop, and the display if one was started. */
export const SERVER_ANSWER_MS = 750;
export const DISPLAY_ANSWER_MS = 1_000;

/**
 * The container entrypoint: runs the server as a child with stdin/stdout/stderr
 * inherited untouched (stdout is the MCP channel in stdio mode), starts the
 * virtual display when the server first asks for one, answers the private
 * health socket, and takes the container down with the server: when the
 * server exits, when the display fails or dies, or on SIGTERM/SIGINT/SIGHUP.
 * Resolves with the exit status the container should have.
 */
export async function runLauncher(args: readonly string[], config: Config, log: Logger): Promise<number> {
  let failure: string | undefined;
  let stopping: Promise<number> | undefined;
  let child: ChildProcess | undefined;
  let childError: Error | undefined;
  let exitStatus = 0;
  let resolveDone!: (status: number) => void;
  const done = new Promise<number>((resolve) => (resolveDone = resolve));

  const display = new Display({
    xvfbPath: config.xvfbPath,
    screen: config.xvfbScreen,
    log,
    onFailure: (reason) => {
      failure = `the display failed: ${reason}`;
      void shutdown(failure);
    },
  });
  const control = await ControlServer.open({ display: () => display.ensure() }, log);

  const check = async (): Promise<HealthReport> => {
    const displayState = (ok: boolean | null): HealthReport['display'] =>
      failure ? 'failed' : ok === null ? 'not started' : ok ? 'ok' : 'no answer within 1 s';
    if (stopping) return { ok: false, server: 'stopping', display: displayState(null) };
    const [serverOk, displayOk] = await Promise.all([
      control.ping(SERVER_ANSWER_MS),
      // A display still starting is bounded by its own start timeout, not by the health check.
      display.ready ? display.answers(DISPLAY_ANSWER_MS) : Promise.resolve(null),
    ]);
    return {
      ok: serverOk && displayOk !== false && !failure && !stopping,
      server: serverOk ? 'ok' : control.connected ? 'no answer within 750 ms' : 'not connected',
      display: displayState(displayOk),
    };
  };
  let health: HealthServer;
  try {
    health = await HealthServer.open(config.healthSocket, check, log);
  } catch (error) {
    control.close();
    throw error;
  }

  const shutdown = (reason: string): Promise<number> => {
    stopping ??= (async () => {
      log.info(`launcher: shutting down (${reason})`);
      health.close();
      display.markStopping();
      // Sequential, server first: it closes its browsers, which are the display's clients.
      await stopChild(child, 'server', log);
      await stopChild(display.process, 'Xvfb', log);
      control.close();
      const status = failure || childError ? 1 : exitStatus;
      resolveDone(status);
      return status;
    })();
    return stopping;
  };

  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => void shutdown(`received ${signal}`));

  const command = serverCommand(args);
  log.debug(`launcher: starting ${command.file} ${command.args.join(' ')}`);
  child = spawn(command.file, command.args, {
    stdio: 'inherit',
    env: { ...process.env, [CONTROL_ENV]: control.path },
  });
  child.once('error', (error) => {
    childError = error;
    log.error(`launcher: could not start the server (${command.file}): ${error.message}`);
    void shutdown('the server did not start');
  });
  child.once('exit', (code, signal) => {
    // The shell convention: 128 + signal number when the server was killed.
    exitStatus = code ?? 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0);
    if (!stopping) log.info(`launcher: the server exited (${signal ? `signal ${signal}` : `status ${code}`})`);
    void shutdown('the server exited');
  });
  return done;
}
