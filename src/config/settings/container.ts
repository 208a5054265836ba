import os from 'node:os';
import path from 'node:path';
import { filePath } from '../kinds.ts';
import { xvfbScreen } from '../../container/kinds.ts';
import { setting } from './setting.ts';

// The container launcher: virtual display and health socket.
export const containerSettings = {
  healthSocket: setting({
    flag: 'health-socket',
    env: 'STEALTH_PLAYWRIGHT_MCP_HEALTH_SOCKET',
    kind: filePath,
    default: path.join(os.tmpdir(), 'stealth-playwright-mcp-health.sock'),
    help: '`launcher` and `health`: the private Unix socket (mode 0600) through which the health command asks the launcher',
    section: 'container',
  }),
  xvfbPath: setting({
    flag: 'xvfb-path',
    env: 'STEALTH_PLAYWRIGHT_MCP_XVFB_PATH',
    kind: filePath,
    default: '/usr/bin/Xvfb',
    help: '`launcher`: the Xvfb it starts when the first headed session needs a display',
    section: 'container',
  }),
  xvfbScreen: setting({
    flag: 'xvfb-screen',
    env: 'STEALTH_PLAYWRIGHT_MCP_XVFB_SCREEN',
    kind: xvfbScreen,
    default: '1920x1080x24',
    help: '`launcher`: size and depth of the virtual display (the screen headed pages see)',
    section: 'container',
  }),
  launcherControl: setting({
    flag: 'launcher-control',
    env: 'STEALTH_PLAYWRIGHT_MCP_LAUNCHER_CONTROL',
    kind: filePath,
    help: 'Set by `launcher` for the server it runs (not for users): its private control socket, for display requests and liveness pings',
    section: 'container',
  }),
};
