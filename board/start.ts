// The virtual board as a terminal, for `npm run board` and `npm run hil --
// --board`: the brand's build (made when missing), the board's files
// (board/board.ts), the simulated API behind the guest's lighttpd, the
// firmware's feed (access file and restarts: board/firmware-feed.ts), and
// QEMU booted to the login prompt on ttyS0.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt } from '../build.ts';
import { loadModel } from '../simulator/model.ts';
import { startSimulator, type Simulator } from '../simulator/server.ts';
import { prepareBoard, type BoardFiles } from './board.ts';
import { freePort, startBoard, type Board } from './qemu.ts';
import { ROOT, missingHostTools } from './packages.ts';
import { startFirmwareFeed } from './firmware-feed.ts';

export interface BoardTerminalOptions {
  brand: string;
  /** The board's terminal profile (name or path): board by default. */
  profile?: string;
  /** The /data image: .board-cache/data-<brand>.img by default, kept between runs like a terminal's disk. */
  disk?: string;
  /** The simulated API's store: .sim-data/board-<brand>.json by default. */
  storeFile?: string;
  /** The factory state: /data made again from the build, the API's store forgotten. */
  fresh?: boolean;
  /** A fresh store starts activated with this administrator password (the harness's runs); without it, in the factory state. */
  activated?: string;
  /** The device profile of the simulated API (simulator/models), default by default. */
  deviceProfile?: string;
  /** An unattended bench: enrolment times out instead of waiting for a finger or face. */
  unattended?: boolean;
  /** Loopback port for the guest's port 80 (a free one by default). */
  httpPort?: number;
  pty?: boolean;
  accel?: 'kvm' | 'tcg';
  onSerial?: (chunk: Buffer) => void;
  /** The simulated API's request log. */
  apiLog?: boolean;
  log?: (line: string) => void;
}

export interface BoardTerminal {
  files: BoardFiles;
  board: Board;
  sim: Simulator;
  storeFile: string;
  /** ms from QEMU's start to the login prompt. */
  bootMs: number;
  close(): Promise<void>;
}

export async function startBoardTerminal(o: BoardTerminalOptions): Promise<BoardTerminal> {
  const log = o.log ?? (() => undefined);
  const missing = missingHostTools();
  if (missing) throw new Error(`the board needs host tools: ${missing}`);
  const siteDir = join(ROOT, 'dist', o.brand);
  await ensureBuilt(o.brand, { log });
  const files = prepareBoard({ brand: o.brand, fresh: o.fresh, profile: o.profile ?? 'board', disk: o.disk, log });
  const storeFile = o.storeFile ?? join(ROOT, '.sim-data', `board-${o.brand}.json`);
  if (o.fresh) {
    rmSync(storeFile, { force: true });
    rmSync(`${storeFile}.photos`, { recursive: true, force: true });
  }
  const profile = loadModel(o.deviceProfile ?? 'default', o.unattended ? { enroll: { outcome: 'timeout', timeoutMs: 10_000 } } : undefined);
  const sim = await startSimulator({ siteDir, brand: o.brand, model: profile, storeFile, port: await freePort(), host: '127.0.0.1', log: o.apiLog, activated: o.activated });
  const feed = await startFirmwareFeed(sim);
  let board: Board;
  try {
    board = await startBoard({ files, apiPort: Number(new URL(sim.url).port), firmwarePort: feed.port, httpPort: o.httpPort, pty: o.pty, accel: o.accel, onSerial: o.onSerial, log: o.apiLog ? log : undefined });
  } catch (e) {
    await Promise.allSettled([feed.close(), sim.close()]);
    throw e;
  }
  const close = async () => {
    await Promise.allSettled([board.close(), feed.close(), sim.close()]);
  };
  try {
    const bootMs = await board.booted;
    return { files, board, sim, storeFile, bootMs, close };
  } catch (e) {
    await close();
    throw e;
  }
}
