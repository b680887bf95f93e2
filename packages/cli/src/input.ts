/** Node data from an argument, or from standard input when the argument is `-`. */
import type { CommandContext } from './command.js';
import { UsageError } from './exit-codes.js';

export async function readAll(stream: NodeJS.ReadableStream): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return new Uint8Array(Buffer.concat(chunks));
}

export async function dataArgument(context: CommandContext, value: string | undefined): Promise<Uint8Array | string | null> {
  if (value === undefined) return null;
  if (value !== '-') return value;
  if (context.interactive) throw new UsageError("data from stdin ('-') is not available in the shell");
  return readAll(context.io.stdin);
}
