// Headless stock Chromium calls itself HeadlessChrome. The user agent a headed
// Chrome of the same version sends, in its reduced form (Chrome freezes the
// platform and the minor version numbers since UA reduction).
const PLATFORM: Record<string, string> = {
  linux: 'X11; Linux x86_64',
  darwin: 'Macintosh; Intel Mac OS X 10_15_7',
  win32: 'Windows NT 10.0; Win64; x64',
};

export function reducedUserAgent(version: string, platform: NodeJS.Platform = process.platform): string {
  const major = version.split('.')[0];
  return `Mozilla/5.0 (${PLATFORM[platform] ?? PLATFORM.linux}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}
