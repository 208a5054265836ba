import { defineCommand } from 'citty';
import { settings } from '../config/settings.ts';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../package-info.ts';

// citty only needs to know which flags take a value (to find the subcommand
// name); the values themselves are parsed and validated by config/flags.ts.
const args = Object.fromEntries(
  Object.values(settings).map((s) => [s.flag, { type: s.kind.bare ? ('boolean' as const) : ('string' as const) }]),
);

export const root = defineCommand({
  meta: { name: PACKAGE_NAME, version: PACKAGE_VERSION },
  args,
  subCommands: {
    serve: () => import('./serve.ts').then((m) => m.default),
    doctor: () => import('./doctor/command.ts').then((m) => m.default),
    launcher: () => import('./launcher.ts').then((m) => m.default),
    health: () => import('./health.ts').then((m) => m.default),
    login: () => import('./login.ts').then((m) => m.default),
    logout: () => import('./logout.ts').then((m) => m.default),
    info: () => import('./info.ts').then((m) => m.default),
    install: () => import('./install.ts').then((m) => m.default),
    'install-browser': () => import('./install-browser.ts').then((m) => m.default),
  },
  default: 'serve',
});
