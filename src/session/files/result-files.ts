import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { textOf, withNote } from '../result-notes.ts';
import type { SessionFiles } from './session-files.ts';

/** Where the notes of the browser's guards come from: the session's browser. */
export interface NoteSource {
  notesSettled(): Promise<void>;
  takeNotes(): string[];
}

/**
 * A tool's result as the client gets it: what the browser's guards did meanwhile
 * (downloads cancelled, tabs closed) as a note, and a resource link for each
 * file of the session it names. `bytes` is the session's new total when its
 * files changed (the caller announces the new list).
 */
export async function withNotesAndFiles(answer: CallToolResult, browser: NoteSource, files: SessionFiles): Promise<{ result: CallToolResult; bytes?: number }> {
  let result = answer;
  await browser.notesSettled();
  const notes = browser.takeNotes();
  if (notes.length) result = withNote(result, notes.join('\n'));
  const links = await files.linksIn(textOf(result), process.cwd()).catch(() => []);
  const state = await files.refresh(links.length > 0 || notes.length > 0).catch(() => undefined);
  if (links.length) result = { ...result, content: [...(result.content ?? []), ...links] };
  return { result, bytes: state?.changed ? state.bytes : undefined };
}
