/** `akira-mm paper` (what `npm start` runs): paper trading against the embedded exchange. */
import type { CommandRunner } from './io.ts';

/** Not built yet: says so plainly and exits non-zero, so nobody mistakes it for a running bot. */
export const runPaper: CommandRunner = async (_args, io) => {
  io.stderr.write(
    'akira-mm: paper trading is not built yet. The embedded exchange (issue #3) and the market-making\n' +
      'daemon (issue #4) land next; until then `npm test`, `akira-mm hash` and `akira-mm keys new` work.\n',
  );
  return 1;
};
