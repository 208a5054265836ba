// The layers' allowed imports, checked in `npm test` (like Playwright's DEPS.list):
// cli → transport → session → browser | cdp | instance | container → config → leaves.
// A module may import its own layer and the layers below it, never one above.
const layer = (name) => `^src/${name}/`;
const above = {
  config: ['cli', 'transport', 'session', 'cdp', 'instance', 'metrics'],
  browser: ['cli', 'transport', 'session', 'cdp', 'instance'],
  cdp: ['cli', 'session', 'browser', 'instance'],
  instance: ['cli', 'transport', 'session', 'cdp'],
  container: ['cli', 'transport', 'session', 'browser', 'cdp', 'instance'],
  session: ['cli', 'transport'],
  transport: ['cli'],
};

module.exports = {
  forbidden: [
    ...Object.entries(above).map(([from, targets]) => ({
      name: `${from}-not-above`,
      comment: `src/${from} may not import ${targets.join(', ')} (a higher layer)`,
      severity: 'error',
      from: { path: layer(from) },
      to: { path: `^src/(${targets.join('|')})/` },
    })),
    {
      name: 'config-only-kinds-of-lower-layers',
      comment: 'config reads the setting kinds other layers define, nothing else of them',
      severity: 'error',
      from: { path: layer('config') },
      to: { path: '^src/(browser|container)/', pathNot: '(proxy/proxy-kind|context-options|extensions|container/kinds)\\.ts$' },
    },
    {
      name: 'cdp-only-http-guards',
      comment: 'cdp shares the HTTP host guards, nothing else of the transport',
      severity: 'error',
      from: { path: layer('cdp') },
      to: { path: '^src/transport/', pathNot: '^src/transport/http/guards\\.ts$' },
    },
    {
      name: 'leaves-import-no-layer',
      comment: 'metrics and fs are leaves every layer may use',
      severity: 'error',
      from: { path: '^src/(metrics|fs)/' },
      to: { path: '^src/(cli|transport|session|browser|cdp|instance|container|config)/' },
    },
    { name: 'no-circular', severity: 'error', from: { path: '^src/' }, to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    parser: 'swc',
    exclude: { path: 'node_modules' },
  },
};
