/**
 * The sampled path of a run, stored by column. A backtest samples its state every second of
 * simulated time, so a 34-hour recording holds 123,000 samples: as plain objects (a sample, its
 * PnL split and a boxed number per field) they took ~380 bytes each, 47 MB, and made a long
 * replay's memory grow with its length. Here each field is a column of 8-byte floats in chunks of
 * {@link CHUNK} samples (no doubling slack), and the samples a reader sees are small views that
 * read their fields from the columns: ~160 bytes a sample, 19 MB for those 34 hours.
 */
import type { ModelInternals } from '../core/index.ts';
import type { PathSample, PnlComponents } from './stats.ts';

/** Samples per chunk: a power of two, so an index splits with a shift and a mask. */
const CHUNK = 4096;
const CHUNK_SHIFT = 12;

/**
 * Columns of every sample. An absent value is stored as NaN: no sampled value is NaN (prices,
 * balances and PnL are finite; a signal that is NaN reads as absent, as the metrics skip it).
 */
const FIELDS = ['timeMs', 'mid', 'bid', 'ask', 'bestBid', 'bestAsk', 'inventory', 'netInventory', 'pnl', 'spread', 'inventoryPnl', 'fees', 'gas', 'hedge', 'referenceFair', 'basisBps'] as const;
/** Columns of the strategy's internals, allocated once a sample carries them. */
const MODEL_FIELDS = ['sigmaBps', 'arrivalA', 'arrivalKPerBps', 'arrivalFitWeight', 'halfSpreadBps', 'skewBps'] as const;
type Field = (typeof FIELDS)[number];
type ModelField = (typeof MODEL_FIELDS)[number];

/**
 * A growing column of floats in fixed chunks. A chunk is allocated at the first value that is not
 * NaN written into it: a field a run never has (a hedge, a reference, most models' internals)
 * costs nothing.
 */
class Column {
  private readonly chunks: (Float64Array | undefined)[] = [];

  /** The value at `index`; NaN where nothing was written. */
  get(index: number): number {
    return this.chunks[index >>> CHUNK_SHIFT]?.[index & (CHUNK - 1)] ?? Number.NaN;
  }

  set(index: number, value: number): void {
    const chunk = index >>> CHUNK_SHIFT;
    let values = this.chunks[chunk];
    if (values === undefined) {
      if (Number.isNaN(value)) return;
      while (this.chunks.length < chunk) this.chunks.push(undefined);
      values = new Float64Array(CHUNK).fill(Number.NaN);
      this.chunks[chunk] = values;
    }
    values[index & (CHUNK - 1)] = value;
  }
}

const orNaN = (value: number | undefined): number => value ?? Number.NaN;
const orUndefined = (value: number): number | undefined => (Number.isNaN(value) ? undefined : value);

/** One sample: its fields read from the series' columns. */
class SampleView implements PathSample {
  constructor(
    private readonly series: PathSeries,
    private readonly index: number,
  ) {}

  get timeMs(): number {
    return this.series.read('timeMs', this.index);
  }
  get mid(): number | undefined {
    return orUndefined(this.series.read('mid', this.index));
  }
  get bid(): number | undefined {
    return orUndefined(this.series.read('bid', this.index));
  }
  get ask(): number | undefined {
    return orUndefined(this.series.read('ask', this.index));
  }
  get bestBid(): number | undefined {
    return orUndefined(this.series.read('bestBid', this.index));
  }
  get bestAsk(): number | undefined {
    return orUndefined(this.series.read('bestAsk', this.index));
  }
  get inventory(): number {
    return this.series.read('inventory', this.index);
  }
  get netInventory(): number | undefined {
    return orUndefined(this.series.read('netInventory', this.index));
  }
  get pnl(): number {
    return this.series.read('pnl', this.index);
  }
  get components(): PnlComponents {
    const read = (field: Field): number => this.series.read(field, this.index);
    const hedge = orUndefined(read('hedge'));
    return { spread: read('spread'), inventory: read('inventoryPnl'), fees: read('fees'), gas: read('gas'), ...(hedge === undefined ? {} : { hedge }) };
  }
  get referenceFair(): number | undefined {
    return orUndefined(this.series.read('referenceFair', this.index));
  }
  get basisBps(): number | undefined {
    return orUndefined(this.series.read('basisBps', this.index));
  }
  get model(): ModelInternals | undefined {
    return this.series.model(this.index);
  }
}

/** What one sample holds, as {@link PathSeries.push} takes it. */
export interface SampleInput {
  readonly timeMs: number;
  readonly mid: number | undefined;
  readonly bid: number | undefined;
  readonly ask: number | undefined;
  readonly bestBid: number | undefined;
  readonly bestAsk: number | undefined;
  readonly inventory: number;
  readonly netInventory: number | undefined;
  readonly pnl: number;
  readonly components: PnlComponents;
  readonly referenceFair: number | undefined;
  readonly basisBps: number | undefined;
  readonly model: ModelInternals | undefined;
}

/** A run's path samples, stored by column; `samples` are views of them, in time order. */
export class PathSeries {
  /** The samples, in time order (read-only views: copy a field to keep it). */
  readonly samples: PathSample[] = [];
  private readonly columns = new Map<Field, Column>(FIELDS.map((field) => [field, new Column()]));
  private modelColumns: Map<ModelField, Column> | undefined;
  /** Which samples carry internals (1), and which a `signals` record; allocated with the first. */
  private hasModel: Column | undefined;
  private hasSignals: Column | undefined;
  /** One column per signal name, in the order first seen (a signal a sample lacks is NaN there). */
  private readonly signalColumns = new Map<string, Column>();

  /** Appends a sample; `copies` more with the same state at later times (a gap in the recording). */
  push(sample: SampleInput, periodMs: number, copies: number): void {
    for (let k = 0; k <= copies; k++) {
      const index = this.samples.length;
      const write = (field: Field, value: number | undefined): void => (this.columns.get(field) as Column).set(index, orNaN(value));
      write('timeMs', sample.timeMs + k * periodMs);
      write('mid', sample.mid);
      write('bid', sample.bid);
      write('ask', sample.ask);
      write('bestBid', sample.bestBid);
      write('bestAsk', sample.bestAsk);
      write('inventory', sample.inventory);
      write('netInventory', sample.netInventory);
      write('pnl', sample.pnl);
      write('spread', sample.components.spread);
      write('inventoryPnl', sample.components.inventory);
      write('fees', sample.components.fees);
      write('gas', sample.components.gas);
      write('hedge', sample.components.hedge);
      write('referenceFair', sample.referenceFair);
      write('basisBps', sample.basisBps);
      if (sample.model !== undefined) this.writeModel(index, sample.model);
      this.samples.push(new SampleView(this, index));
    }
  }

  /** A field of sample `index` (NaN when absent). */
  read(field: Field, index: number): number {
    return (this.columns.get(field) as Column).get(index);
  }

  /** The strategy's internals at sample `index`, or undefined when it reported none. */
  model(index: number): ModelInternals | undefined {
    if (this.hasModel === undefined || this.modelColumns === undefined || this.hasModel.get(index) !== 1) return undefined;
    const columns = this.modelColumns;
    const internals: { -readonly [K in keyof ModelInternals]: ModelInternals[K] } = {};
    for (const field of MODEL_FIELDS) {
      const value = orUndefined((columns.get(field) as Column).get(index));
      if (value !== undefined) internals[field] = value;
    }
    if (this.hasSignals?.get(index) === 1) {
      const signals: Record<string, number> = {};
      for (const [name, column] of this.signalColumns) {
        const value = column.get(index);
        if (!Number.isNaN(value)) signals[name] = value;
      }
      internals.signals = signals;
    }
    return internals;
  }

  private writeModel(index: number, model: ModelInternals): void {
    this.modelColumns ??= new Map(MODEL_FIELDS.map((field) => [field, new Column()]));
    this.hasModel ??= new Column();
    this.hasModel.set(index, 1);
    for (const field of MODEL_FIELDS) (this.modelColumns.get(field) as Column).set(index, orNaN(model[field]));
    if (model.signals === undefined) return;
    this.hasSignals ??= new Column();
    this.hasSignals.set(index, 1);
    for (const [name, value] of Object.entries(model.signals)) {
      let column = this.signalColumns.get(name);
      if (column === undefined) {
        column = new Column();
        this.signalColumns.set(name, column);
      }
      column.set(index, value);
    }
  }
}
