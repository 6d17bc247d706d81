import { it } from 'vitest';
import { GLFT, AVELLANEDA_STOIKOV, LADDER } from '../../strategies/index.ts';
import { runThinFlow } from '../strategies/thin-flow.ts';
it('table', () => {
  const off = { GLFT_PRIOR_ARRIVALS: '0', GLFT_K_MIN_PER_BPS: '0.000001', GLFT_A_MIN: '0.000001', AS_KAPPA_PRIOR_ARRIVALS: '0', AS_KAPPA_MIN_PER_BPS: '0.000001' };
  for (const seed of [7, 11]) for (const def of [LADDER, AVELLANEDA_STOIKOV, GLFT] as any[]) for (const [label, env] of [['old (fit alone)', def === LADDER ? {} : Object.fromEntries(Object.entries(off).filter(([k]) => k.startsWith(def === GLFT ? 'GLFT' : 'AS')))], ['new defaults', {}]] as const) {
    const p = def.parseParams(env); const s = def.create(p.params);
    const r = runThinFlow(s, { seconds: 480, seed });
    const after = r.samples.filter((x) => x.timeS > 30);
    const widest = Math.max(...after.flatMap((x) => [x.bidBps ?? 0, x.askBps ?? 0]));
    const at = (t: number) => { const x = r.samples[t - 1]!; return `${x.bidBps?.toFixed(0)}/${x.askBps?.toFixed(0)} k=${x.internals?.arrivalKPerBps?.toPrecision(2) ?? '-'}`; };
    console.log(`seed ${seed} ${def.name.padEnd(18)} ${label.padEnd(16)} fills ${String(r.fillTimesS.length).padStart(3)} last-min ${String(r.fillTimesS.filter((t) => t > 420).length).padStart(2)} widest ${widest.toFixed(1)} bp | t=60 ${at(60)} | t=120 ${at(120)} | t=240 ${at(240)} | t=480 ${at(480)} | fair ${r.startFair}->${r.endFair.toFixed(1)}`);
  }
});
