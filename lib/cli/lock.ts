// The CLI's side of the shard lock (lib/manifest/shard-lock.ts): which file and which entry. The
// check itself is the one the construct runs at synth.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError, CliIo, EXIT } from './io';
import { lockNames } from '../manifest/shard-lock';

/** The lock flags `check` and `lock` share. */
export const LOCK_OPTIONS = { 'lock': { type: 'string' }, 'lock-name': { type: 'string' } } as const;

/** Help lines for the lock flags. */
export const LOCK_HELP = `  --lock FILE        the shard lock file (the construct's \`shardLock\`)
  --lock-name NAME   the table's entry in it: the SingleTable's construct path (e.g. MyStack/Table)
                     or its \`shardLockName\`; default: the file's only entry`;

/** A lock file as read: its absolute path, its text (undefined when absent) and the entry to use. */
export interface LockFile {
  readonly path: string;
  readonly text?: string;
  readonly name: string;
}

/**
 * Reads the lock file and picks the entry; a file with several entries needs --lock-name. An absent
 * file is an error when `mustExist` (a check against nothing would pass silently on a wrong path).
 */
export function readLock(file: string, name: string | undefined, io: CliIo, mustExist: boolean): LockFile {
  const path = resolve(io.cwd, file);
  const text = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  if (text === undefined && mustExist) {
    throw new CliError(`${file}: no such file (looked for ${path}); a synth with shardLock or 'single-table lock' creates it`);
  }
  if (name !== undefined) return { path, text, name };
  const names = text === undefined ? [] : lockNames(text);
  // A malformed file has no entry to pick; applyShardLock reports SHARD_LOCK_INVALID before reading any.
  if (names === undefined) return { path, text, name: '' };
  if (names.length === 1) return { path, text, name: names[0] };
  throw new CliError(
    `${file}: ${names.length === 0 ? 'records no table yet' : `records several tables (${names.join(', ')})`}; ` +
      'name the entry with --lock-name: the SingleTable\'s construct path (e.g. MyStack/Table) or its shardLockName',
    EXIT.USAGE,
  );
}
