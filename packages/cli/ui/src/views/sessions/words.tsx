/**
 * Which four-letter words the server answered, and for each refused one what the view cannot show and why,
 * in words: servers answer only the words in their `4lw.commands.whitelist`.
 */
import type { JSX } from 'preact';

import type { MntrHistory, WordStatus } from '../../../../src/console/api-types.js';

/** What the view loses without each word. */
const SHOWS: Readonly<Record<string, string>> = {
  cons: "sessions' client addresses, timeouts and packet counts",
  wchc: 'the paths each session watches',
  wchp: 'the sessions watching each path (the most watched paths)',
  dump: 'the ephemeral nodes each session owns',
  mntr: "the server's figures over time",
};

/** One sentence: the word, why it did not answer, and what is missing because of it. */
export function wordNote(word: string, reason: string | null): string {
  const missing = SHOWS[word] ?? 'its figures';
  const why =
    reason !== null && /whitelist/i.test(reason)
      ? `${word} is not in the server's 4lw.commands.whitelist`
      : `${word} did not answer${reason === null ? '' : ` (${reason})`}`;
  return `${why}: ${missing} cannot be shown.`;
}

export function WordNotes({ words, mntr }: { words: readonly WordStatus[]; mntr: MntrHistory | undefined }): JSX.Element {
  const all: WordStatus[] = [...words];
  if (mntr !== undefined && !mntr.available && mntr.reason !== 'not sampled yet') all.push({ word: 'mntr', available: false, reason: mntr.reason });
  const refused = all.filter((w) => !w.available);
  return (
    <div class="word-notes" data-testid="word-notes">
      <span class="muted small">four-letter words: </span>
      {all.map((w) => (
        <span key={w.word} class={w.available ? 'badge ok' : 'badge bad'} data-testid={`word-${w.word}`} data-available={String(w.available)}>
          {w.word}
        </span>
      ))}
      {refused.length === 0 ? null : (
        <ul class="notes">
          {refused.map((w) => (
            <li key={w.word} data-testid="word-note">
              {wordNote(w.word, w.reason)}
              {w.reason === null ? null : <span class="muted small"> The server said: “{w.reason}”</span>}
            </li>
          ))}
          <li class="muted small">Add the words to 4lw.commands.whitelist in the server's zoo.cfg (or `*` for all) to see them.</li>
        </ul>
      )}
    </div>
  );
}
