// tools/apidoc.ts: docs/API.md, which it writes from the contract, is current
// with it (the page the firmware team reads is never behind the code).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { API_DOC, renderApiDoc } from '../../tools/apidoc.ts';

test('docs/API.md is current with the contract (run `npm run docs` after changing it)', () => {
  assert.fixture(readFileSync(API_DOC, 'utf8'), renderApiDoc());
});

test.run();
