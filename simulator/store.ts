// The simulated terminal's persistent store: one JSON file, written
// atomically (temp file, fsync, rename, fsync of the folder), so a crash at
// any moment leaves either the old or the new state, never a torn file.
// A change is acknowledged only after its write has completed.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeSync, existsSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';

const tempName = (file: string, pid: number | string) => join(dirname(file), `.${basename(file)}.${pid}.tmp`);

/**
 * Temporary files a killed writer left beside `file` (a kill or power cut
 * between write and rename): removed at start, so they never pile up. The file
 * itself is whole (the rename is atomic), so nothing in them is needed.
 */
export function removeLeftovers(file: string): string[] {
  if (!existsSync(dirname(file))) return [];
  const pattern = new RegExp(`^\\.${basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)\\.tmp$`);
  // A writer that is still running (this process, or another on the same store) keeps its file.
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
  };
  const gone = readdirSync(dirname(file)).filter((n) => {
    const m = pattern.exec(n);
    return m !== null && !alive(Number(m[1]));
  });
  for (const n of gone) rmSync(join(dirname(file), n), { force: true });
  return gone;
}

export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = tempName(file, process.pid);
  const fd = openSync(tmp, 'w', 0o600);
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  // Make the rename itself durable.
  const dir = openSync(dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

export class Store<T extends object> {
  private state: T;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    readonly file: string,
    seed: () => T,
  ) {
    removeLeftovers(file);
    if (existsSync(file)) {
      this.state = { ...seed(), ...(JSON.parse(readFileSync(file, 'utf8')) as T) };
    } else {
      this.state = seed();
      writeFileAtomic(file, JSON.stringify(this.state, null, 1));
    }
  }

  get(): Readonly<T> {
    return this.state;
  }

  /**
   * Apply a change and resolve once it is on disk. Changes are applied and
   * written one after another, in the order they arrive.
   */
  update(change: (draft: T) => void): Promise<void> {
    const next = this.chain.then(() => {
      const draft = structuredClone(this.state);
      change(draft);
      writeFileAtomic(this.file, JSON.stringify(draft, null, 1));
      this.state = draft;
    });
    this.chain = next.catch(() => undefined);
    return next;
  }
}
