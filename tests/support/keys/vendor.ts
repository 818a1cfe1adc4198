// The tests' vendor key (vendor-test.pem here): a TEST KEY, public in this
// repository. The simulator's default profile holds its public half, so a
// package signed with it installs there; a real terminal never holds it.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSigningKey } from '../../../contract/firmware.ts';

export const TEST_VENDOR_KEY_FILE = join(dirname(fileURLToPath(import.meta.url)), 'vendor-test.pem');
export const TEST_VENDOR_KEY = readSigningKey(readFileSync(TEST_VENDOR_KEY_FILE));
