// Which of the DevTools pipe's messages the quiet runtime shim reads. Most
// pass undecoded: only their first and last bytes are looked at (a snapshot
// or a screenshot is megabytes of JSON), and only these are parsed.

/** Target types whose sessions keep the Runtime domain off. */
export const QUIET_TYPES = new Set(['page', 'iframe', 'worker', 'service_worker']);

export type Message = { id?: number; method?: string; params?: Record<string, unknown>; sessionId?: string; result?: unknown; error?: unknown };

export const EVENT_PREFIX = '{"method":"';
// Events that change what contexts exist, or which sessions exist, or whether a page can answer.
export const WATCHED_EVENTS = new Set([
  'Target.attachedToTarget',
  'Target.detachedFromTarget',
  'Runtime.executionContextCreated',
  'Runtime.executionContextDestroyed',
  'Runtime.executionContextsCleared',
  'Page.frameNavigated',
  'Page.frameAttached',
  'Page.frameDetached',
  'Page.frameStartedNavigating',
  'Page.lifecycleEvent',
  'Inspector.targetCrashed',
  'Inspector.workerScriptLoaded',
  'Inspector.targetReloadedAfterCrash',
  'Page.javascriptDialogOpening',
  'Page.javascriptDialogClosed',
]);
// Contexts a page made after its navigation committed (frames get their own events).
export const SYNC_ON_LIFECYCLE = new Set(['load']);
/** The same names as they appear in a lifecycle event's text. */
export const SYNC_ON_LIFECYCLE_NAMES = [...SYNC_ON_LIFECYCLE].map((name) => `"name":"${name}"`);
export const REPLAYED_EVENTS = ['{"method":"Runtime.consoleAPICalled"', '{"method":"Runtime.exceptionThrown"'];
export const SCRIPT_METHODS = new Set(['Runtime.evaluate', 'Runtime.callFunctionOn']);
export const USER_AGENT_METHODS = new Set(['Emulation.setUserAgentOverride', 'Network.setUserAgentOverride']);
export const WINDOW_METHODS = new Set(['Browser.getVersion', 'Browser.setWindowBounds']);
/** Input whose handlers may log, then navigate: a click (press and release), a key going down, text put in. */
export const INPUT_METHODS = new Set(['Input.dispatchMouseEvent', 'Input.dispatchKeyEvent', 'Input.insertText', 'Input.dispatchTouchEvent']);
/** Of those, the events that run no handler of that kind (a pointer moving, a key going up, a wheel): their first bytes (Playwright sends `type` first). */
export const QUIET_INPUT = /^\{"id":\d+,"method":"Input\.dispatch(Mouse|Key|Touch)Event","params":\{"type":"(mouseMoved|mouseWheel|keyUp|touchMove)"/;
export const WATCHED_COMMANDS = new Set([...WINDOW_METHODS, ...INPUT_METHODS, 'Runtime.enable', 'Runtime.disable', 'Page.createIsolatedWorld', 'Runtime.addBinding', 'Runtime.removeBinding', 'Target.detachFromTarget', ...USER_AGENT_METHODS, ...SCRIPT_METHODS]);
// Playwright writes sessionId last: the session of a big command (a 300 kB script) without decoding it.
export const SESSION_AT_END = /"sessionId":"([^"\\]+)"\}$/;
export const RESPONSE_ID = /^\{"id":(-?\d+)/;
export const REQUEST_HEAD = /^\{"id":(\d+),"method":"([A-Za-z.]+)"/;
