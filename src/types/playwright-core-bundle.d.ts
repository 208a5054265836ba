// playwright-core exports lib/coreBundle (where the upstream's MCP server and
// its config resolver live) without types; callers cast what they use.
declare module 'playwright-core/lib/coreBundle' {
  const coreBundle: unknown;
  export default coreBundle;
}

// The upstream's CLI parser (commander) lives here.
declare module 'playwright-core/lib/utilsBundle' {
  const utilsBundle: unknown;
  export default utilsBundle;
}
