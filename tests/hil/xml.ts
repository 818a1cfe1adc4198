// Well-formedness of the XML reports, judged by a real XML parser: Python's
// expat (python3 is on every machine this runs on; no npm package needed).
import { spawnSync } from 'node:child_process';

/** Throws with the parser's own message when `file` is not well-formed XML. */
export function parseXml(file: string): void {
  const r = spawnSync('python3', ['-c', 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])', file], { encoding: 'utf8' });
  if (r.error) throw new Error(`python3 is needed to check XML: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${file} is not well-formed XML: ${r.stderr.trim().split('\n').pop()}`);
}
