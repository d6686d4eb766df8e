// A table whose rows arrive at the end and leave from the front, oldest first (the carrier's event log): every index bucket is then a queue, so an insert or dropping the oldest row costs O(1), no tree.
import { IdMap } from "./id-map.js";
import { compactFrom, moved, PositionQueue } from "./position-queue.js";
import type {
  AppendOnlyStoredTable,
  IndexKey,
  ScanOptions,
  TableBuilder,
  TableDefinition,
  UndoRecorder,
} from "./stored-table.js";

/** Files a position after the others under `key` (an insert), starting the key's queue if it has none. */
function fileNewest(buckets: Map<string, PositionQueue>, key: string, position: number): void {
  const bucket = buckets.get(key);
  if (bucket) bucket.push(position);
  else buckets.set(key, new PositionQueue(position));
}

/** Files a position before the others under `key` (a drop undone), starting the key's queue if it has none. */
function fileOldest(buckets: Map<string, PositionQueue>, key: string, position: number): void {
  const bucket = buckets.get(key);
  if (bucket) bucket.unshift(position);
  else buckets.set(key, new PositionQueue(position));
}

/** A table's rows and indexes as an append-only table keeps them. */
interface AppendOnlyState<T> {
  /**
   * The position of each id that does not carry its own (TableDefinition.positionIn): ids minted with their
   * position are found without a map, and only the others (rows loaded from a snapshot, ids made elsewhere) cost
   * an entry here. Measured (docs/decisions.md, "A cheaper message"): the map's steps were most of an event's cost.
   */
  apart: IdMap;
  /** Rows by position minus `base`; slots before `head` were dropped. */
  rows: (T | undefined)[];
  base: number;
  head: number;
  indexes: Map<string, PositionQueue>[];
}

/** What an id is found by: the position it carries, and the row's own id to check that it is the row there. */
interface IdReader<T> {
  idOf: (row: T) => string;
  positionIn: (id: string) => number | undefined;
}

/** Where the row with `id` is, or undefined when the table does not hold it. */
function positionOf<T>(state: AppendOnlyState<T>, reader: IdReader<T>, id: string): number | undefined {
  if (state.apart.size > 0) {
    const kept = state.apart.get(id);
    if (kept !== undefined) return kept;
  }
  const position = reader.positionIn(id);
  if (position === undefined) return undefined;
  const row = position - state.base >= state.head ? state.rows[position - state.base] : undefined;
  return row !== undefined && reader.idOf(row) === id ? position : undefined;
}

/** Notes a new row's position under its id, unless the id carries it. */
function fileId<T>(state: AppendOnlyState<T>, reader: IdReader<T>, id: string, position: number): void {
  if (reader.positionIn(id) !== position) state.apart.set(id, position);
}

const noPosition = () => undefined;

export class AppendOnlyTable<T> implements AppendOnlyStoredTable<T> {
  readonly name: string;
  private readonly reader: IdReader<T>;
  private readonly indexDefs: [string, IndexKey<T>][];
  private readonly indexNumber: Map<string, number>;
  private readonly recordUndo: UndoRecorder;
  private state: AppendOnlyState<T>;

  constructor(definition: TableDefinition<T>, recordUndo: UndoRecorder) {
    this.name = definition.name;
    this.reader = { idOf: definition.id, positionIn: definition.positionIn ?? noPosition };
    this.indexDefs = Object.entries(definition.indexes ?? {});
    this.indexNumber = new Map(this.indexDefs.map(([name], i) => [name, i]));
    this.recordUndo = recordUndo;
    this.state = emptyState(this.indexDefs.length);
  }

  get size(): number {
    return this.state.rows.length - this.state.head;
  }

  get nextPosition(): number {
    return this.state.base + this.state.rows.length;
  }

  get(id: string): T | undefined {
    const position = positionOf(this.state, this.reader, id);
    return position === undefined ? undefined : this.at(position);
  }

  has(id: string): boolean {
    return positionOf(this.state, this.reader, id) !== undefined;
  }

  all(): T[] {
    return this.state.rows.slice(this.state.head) as T[];
  }

  where(index: string, key: string): T[] {
    return [...this.scan({ index, key })];
  }

  count(index: string, key: string): number {
    return this.bucket(index, key)?.size ?? 0;
  }

  findOne(index: string, key: string): T | undefined {
    const first = this.bucket(index, key)?.first();
    return first === undefined ? undefined : this.at(first);
  }

  latest(index: string, key: string): T | undefined {
    const last = this.bucket(index, key)?.last();
    return last === undefined ? undefined : this.at(last);
  }

  oldest(): T | undefined {
    const { rows, head } = this.state;
    return head < rows.length ? rows[head] : undefined;
  }

  *scan(options: ScanOptions = {}): Generator<T> {
    const reverse = options.reverse ?? false;
    const after =
      options.after === undefined ? undefined : positionOf(this.state, this.reader, options.after);
    if (options.index !== undefined) {
      const bucket = this.bucket(options.index, options.key ?? "");
      if (!bucket) return;
      for (const position of bucket.walk(reverse, after)) yield this.at(position)!;
      return;
    }
    const { rows, base, head } = this.state;
    if (reverse) {
      for (let i = after === undefined ? rows.length - 1 : after - base - 1; i >= head; i--) yield rows[i]!;
    } else {
      for (let i = after === undefined ? head : after - base + 1; i < rows.length; i++) yield rows[i]!;
    }
  }

  insert(row: T): T {
    const id = this.reader.idOf(row);
    const state = this.state;
    if (positionOf(state, this.reader, id) !== undefined)
      throw new Error(`duplicate id ${id} in ${this.name}`);
    const position = state.base + state.rows.length;
    fileId(state, this.reader, id, position);
    state.rows.push(row);
    // Keys read in the loop, not gathered in an array: an undo (rare) reads them again from the same row.
    const defs = this.indexDefs;
    for (let i = 0; i < defs.length; i++) {
      const key = defs[i]![1](row);
      if (key !== null && key !== undefined) fileNewest(state.indexes[i]!, key, position);
    }
    this.recordUndo(() => this.takeBackNewest(id, this.keysOf(row)), { table: this.name, op: "put", row });
    return row;
  }

  replace(row: T): T {
    throw new Error(
      `rows of ${this.name} are never changed; ${this.reader.idOf(row)} stays as it was written`,
    );
  }

  /** Only the oldest row can go: rows leave in the order they came. */
  delete(id: string): T | undefined {
    const state = this.state;
    const oldest = this.oldest();
    if (oldest === undefined || this.reader.idOf(oldest) !== id) {
      if (!this.has(id)) return undefined;
      throw new Error(`rows of ${this.name} leave oldest first; ${id} is not the oldest`);
    }
    const position = state.base + state.head;
    if (state.apart.size > 0) state.apart.delete(id);
    state.rows[state.head] = undefined;
    state.head++;
    const defs = this.indexDefs;
    for (let i = 0; i < defs.length; i++) {
      const key = defs[i]![1](oldest);
      if (key === null || key === undefined) continue;
      const bucket = state.indexes[i]!.get(key)!;
      bucket.shift();
      if (bucket.size === 0) state.indexes[i]!.delete(key);
    }
    if (state.head >= compactFrom && state.head * 2 >= state.rows.length) {
      state.rows = state.rows.slice(state.head);
      state.base += state.head;
      state.head = 0;
    }
    this.recordUndo(() => this.putBackOldest(id, position, oldest, this.keysOf(oldest)), {
      table: this.name,
      op: "delete",
      id,
    });
    return oldest;
  }

  load(rows: Iterable<T>): void {
    const contents = this.contents();
    for (const row of rows) contents.add(row);
    this.install(contents);
  }

  contents(): AppendOnlyContents<T> {
    return new AppendOnlyContents(this.name, this.reader, this.indexDefs);
  }

  install(builder: TableBuilder<T>): void {
    const contents = builder as AppendOnlyContents<T>;
    for (const _step of contents.finish()) {
      // Building is one pass over arrays already in order: nothing to step through.
    }
    this.state = contents.built!;
  }

  /** A copy of the row references (the rows themselves are immutable values): O(rows), one array. */
  frozenRows(): Iterable<T> {
    return this.all();
  }

  /** Its indexes are queues filled in the same pass as the rows: none is ever left for later. */
  readonly indexesPending = false;

  *buildIndexes(): Generator<void> {
    // Nothing deferred (see indexesPending).
  }

  private at(position: number): T | undefined {
    return this.state.rows[position - this.state.base];
  }

  private keysOf(row: T): (string | null | undefined)[] {
    return this.indexDefs.map(([, keyOf]) => keyOf(row));
  }

  private bucket(index: string, key: string): PositionQueue | undefined {
    const number = this.indexNumber.get(index);
    if (number === undefined) throw new Error(`table ${this.name} has no index ${index}`);
    return this.state.indexes[number]!.get(key);
  }

  /** Undoes the newest insert (undos run newest first, so it is still the newest). */
  private takeBackNewest(id: string, keys: (string | null | undefined)[]): void {
    const state = this.state;
    if (state.apart.size > 0) state.apart.delete(id);
    state.rows.pop();
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key === null || key === undefined) continue;
      const bucket = state.indexes[i]!.get(key)!;
      bucket.pop();
      if (bucket.size === 0) state.indexes[i]!.delete(key);
    }
  }

  /** Undoes a drop of the oldest row: it goes back in front, at its old position. */
  private putBackOldest(id: string, position: number, row: T, keys: (string | null | undefined)[]): void {
    const state = this.state;
    if (state.head === 0) {
      // No room in front: make as much as the table holds, so undoing a long run of drops does not move every
      // row once per row put back.
      const room = Math.max(state.rows.length, 1);
      state.rows = moved(state.rows, 0, state.rows.length, room, room + state.rows.length);
      state.head = room;
      state.base -= room;
    }
    state.rows[--state.head] = row;
    fileId(state, this.reader, id, position);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key !== null && key !== undefined) fileOldest(state.indexes[i]!, key, position);
    }
  }
}

function emptyState<T>(indexCount: number): AppendOnlyState<T> {
  return {
    apart: new IdMap(),
    rows: [],
    base: 0,
    head: 0,
    indexes: Array.from({ length: indexCount }, () => new Map()),
  };
}

/** An append-only table's contents, built from rows in table order. */
export class AppendOnlyContents<T> implements TableBuilder<T> {
  private readonly state: AppendOnlyState<T>;
  built: AppendOnlyState<T> | undefined;

  constructor(
    private readonly name: string,
    private readonly reader: IdReader<T>,
    private readonly indexDefs: [string, IndexKey<T>][],
  ) {
    this.state = emptyState(indexDefs.length);
  }

  get size(): number {
    return this.state.rows.length;
  }

  add(row: T): void {
    const id = this.reader.idOf(row);
    const state = this.state;
    if (positionOf(state, this.reader, id) !== undefined)
      throw new Error(`duplicate id ${id} in ${this.name}`);
    const position = state.rows.length;
    fileId(state, this.reader, id, position);
    state.rows.push(row);
    for (let i = 0; i < this.indexDefs.length; i++) {
      const key = this.indexDefs[i]![1](row);
      if (key === null || key === undefined) continue;
      fileNewest(state.indexes[i]!, key, position);
    }
  }

  /** Nothing is left to build: rows and queues were filed in order as they arrived. */
  *finish(): Generator<void> {
    this.built = this.state;
    yield* [];
  }
}
