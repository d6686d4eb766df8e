// Rows as compact lines for the data directory's snapshot: keys once per shape, then only the values that differ from the row before.

/**
 * A row line is a JSON array. `[0, v0, v1, ...]` holds every value in the shape's key order; `[[i, j], vi, vj]`
 * only the columns that differ from the previous row of the same shape (the others are the previous row's,
 * shared rather than copied: rows are immutable values). A table's rows are mostly alike (one account, a few
 * statuses, the same callback settings), so a line holds a few values instead of every key and value, and a
 * restart reads a fraction of the bytes.
 *
 * A shape line `{"keys":[...]}` (with `"of"` naming a nested shape) comes before the first row of each shape.
 * Event rows hold the resource they describe in `data`; that column is written the same way, nested, with one
 * shape per resource type, so consecutive events about alike resources cost a few values each.
 */

/** The column of the events table written as a nested row, and the column whose value picks its shape. */
const nestedColumns: Record<string, { column: string; by: string }> = {
  events: { column: "data", by: "resource_type" },
};

type Row = Record<string, unknown>;

interface EncodeShape {
  keys: string[];
  previous: unknown[] | undefined;
  /** The JSON of the previous row's object and array values, by column (see `values`). */
  previousJson: (string | undefined)[];
}

/** A plain object with string keys (not an array, not null): what a row and an event's `data` are. */
const isRecord = (value: unknown): value is Row =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Writes rows as lines; keeps the previous row of each shape, so one encoder serves one snapshot in order. */
export class RowEncoder {
  private readonly shapes = new Map<string, EncodeShape>();
  private table = "";
  private nested: { column: string; by: string } | undefined;

  /** The line that starts `table`'s rows. */
  startTable(table: string): string {
    this.table = table;
    this.nested = nestedColumns[table];
    return `${JSON.stringify({ table })}\n`;
  }

  /** One row as its line(s): a shape line first when the row's keys are not the current shape's. */
  encode(row: Row): string {
    const nested = this.nested;
    if (nested && isRecord(row[nested.column])) {
      const of = `${nested.column}:${String(row[nested.by])}`;
      let head = "";
      const inner = this.values(of, row[nested.column] as Row, (line) => {
        head += line;
      });
      const outer = this.values(
        this.table,
        row,
        (line) => {
          head += line;
        },
        nested.column,
        inner,
      );
      return `${head}${outer}\n`;
    }
    let head = "";
    const line = this.values(this.table, row, (shapeLine) => {
      head += shapeLine;
    });
    return `${head}${line}\n`;
  }

  /** The row's values as a JSON array (see above); `raw` replaces one column's value with text already encoded. */
  private values(
    context: string,
    row: Row,
    announce: (line: string) => void,
    rawColumn?: string,
    raw?: string,
  ): string {
    let shape = this.shapes.get(context);
    if (!shape || !sameKeys(shape.keys, row)) {
      shape = { keys: definedKeys(row), previous: undefined, previousJson: [] };
      this.shapes.set(context, shape);
      const of = context === this.table ? undefined : context;
      announce(`${JSON.stringify(of === undefined ? { keys: shape.keys } : { keys: shape.keys, of })}\n`);
    }
    const { keys, previous, previousJson } = shape;
    const current = new Array<unknown>(keys.length);
    let changed = "";
    let values = "";
    let count = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const value = row[key];
      current[i] = value;
      // The nested column is always written: its own line says what changed inside it.
      if (key !== rawColumn && previous !== undefined && previous[i] === value) continue;
      let text: string;
      if (key === rawColumn) text = raw!;
      else if (typeof value === "object" && value !== null) {
        // An equal array or object that is not the same one (rows read back from an import each have their
        // own): unchanged as well, so a reader shares one value between the rows instead of a copy per row.
        text = JSON.stringify(value);
        if (previous !== undefined && previousJson[i] === text) continue;
        previousJson[i] = text;
      } else text = JSON.stringify(value);
      changed += count === 0 ? `${i}` : `,${i}`;
      values += `,${text}`;
      count += 1;
    }
    shape.previous = current;
    // Every column changed (or the first row of its shape): the list of columns would only add bytes.
    return count === keys.length ? `[0${values}]` : `[[${changed}]${values}]`;
  }
}

/** The row's own keys whose values are defined, in order (JSON leaves undefined out as well). */
function definedKeys(row: Row): string[] {
  const keys: string[] = [];
  for (const key in row) if (row[key] !== undefined) keys.push(key);
  return keys;
}

function sameKeys(keys: string[], row: Row): boolean {
  let i = 0;
  for (const key in row) {
    if (row[key] === undefined) continue;
    if (keys[i] !== key) return false;
    i += 1;
  }
  return i === keys.length;
}

interface DecodeShape {
  build: (values: unknown[]) => Row;
  width: number;
  previous: unknown[] | undefined;
  previousRow: Row | undefined;
  /** Which column holds a nested row, and which column names its shape. */
  nested: { index: number; by: number } | undefined;
}

/** A line the decoder could not read. */
export class RowLineError extends Error {}

/** Reads what RowEncoder wrote, line by line. */
export class RowDecoder {
  private readonly shapes = new Map<string, DecodeShape>();
  private table = "";

  /** Handles one parsed line: returns the table and row for a row line, or undefined for a table or shape line. */
  line(value: unknown): Row | undefined {
    if (Array.isArray(value)) {
      const shape = this.shapes.get(this.table);
      if (!shape) throw new RowLineError("a row before its table's keys");
      return this.row(shape, value);
    }
    if (!isRecord(value)) throw new RowLineError("neither a row nor a table or keys line");
    if (typeof value.table === "string") {
      this.table = value.table;
      return undefined;
    }
    if (Array.isArray(value.keys) && value.keys.every((key) => typeof key === "string")) {
      const keys = value.keys as string[];
      const of = typeof value.of === "string" ? value.of : undefined;
      const nested = of === undefined ? nestedColumns[this.table] : undefined;
      const index = nested ? keys.indexOf(nested.column) : -1;
      this.shapes.set(of ?? this.table, {
        build: builder(keys),
        width: keys.length,
        previous: undefined,
        previousRow: undefined,
        nested: nested && index >= 0 ? { index, by: keys.indexOf(nested.by) } : undefined,
      });
      return undefined;
    }
    throw new RowLineError("neither a row nor a table or keys line");
  }

  /** The table the rows now being read belong to. */
  get currentTable(): string {
    return this.table;
  }

  private row(shape: DecodeShape, line: unknown[]): Row {
    const head = line[0];
    let values: unknown[];
    if (head === 0) {
      if (line.length !== shape.width + 1)
        throw new RowLineError(`${line.length - 1} values for ${shape.width} keys`);
      values = line.slice(1);
    } else if (Array.isArray(head) && shape.previous !== undefined) {
      if (head.length === 0 && shape.previousRow !== undefined && shape.nested === undefined) {
        // Nothing changed: the very same row as before (an event about a resource that has not changed).
        return shape.previousRow;
      }
      // Changed in place: a row is built from the values, never keeps the array itself.
      values = shape.previous;
      for (let i = 0; i < head.length; i++) {
        const column = head[i];
        if (typeof column !== "number" || column < 0 || column >= shape.width)
          throw new RowLineError(`no column ${String(column)}`);
        values[column] = line[i + 1];
      }
    } else {
      throw new RowLineError("changed columns with no row before them");
    }
    const nested = shape.nested;
    if (nested !== undefined && Array.isArray(values[nested.index])) {
      const of = `${nestedColumns[this.table]!.column}:${String(values[nested.by])}`;
      const inner = this.shapes.get(of);
      if (!inner) throw new RowLineError(`nested values before the keys of ${of}`);
      // Kept as the encoded line for the next row's comparison; the row itself gets the decoded value.
      const encoded = values[nested.index];
      values[nested.index] = this.row(inner, encoded as unknown[]);
      shape.previous = values.slice();
      shape.previous[nested.index] = encoded;
    } else {
      shape.previous = values;
    }
    const row = shape.build(values);
    shape.previousRow = row;
    return row;
  }
}

/**
 * A function that makes a row from its values with one object literal, so every row of a shape shares one
 * hidden class and holds its properties in the object itself (smaller and faster than adding them one by one).
 */
function builder(keys: string[]): (values: unknown[]) => Row {
  if (keys.includes("__proto__")) {
    // A literal would set the prototype instead: build such a row property by property.
    return (values) => {
      const row: Row = {};
      keys.forEach((key, i) => {
        Object.defineProperty(row, key, {
          value: values[i],
          enumerable: true,
          writable: true,
          configurable: true,
        });
      });
      return row;
    };
  }
  const body = keys.map((key, i) => `${JSON.stringify(key)}:v[${i}]`).join(",");
  return new Function("v", `return {${body}};`) as (values: unknown[]) => Row;
}
