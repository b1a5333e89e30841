/**
 * Every temporary file or folder a test run creates goes under one folder (TMPDIR for the run: os.tmpdir() in the
 * test workers), removed when the run ends, so `npm test` leaves nothing in the system temporary directory.
 * PYXIS_KEEP_TEST_TMP=1 keeps it (its path is printed) for a post-mortem.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'pyxis-test-'));
  const previous = process.env['TMPDIR'];
  process.env['TMPDIR'] = root;
  return () => {
    if (previous === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previous;
    if (process.env['PYXIS_KEEP_TEST_TMP'] === '1') console.log(`test temporary files kept in ${root}`);
    else rmSync(root, { recursive: true, force: true });
  };
}
