// Compares two V8 heap snapshots by constructor (`npx tsx bench/heap-diff.ts before.heapsnapshot after.heapsnapshot`): what grew between them, in objects and bytes.
import { readFileSync } from "node:fs";

/** Object counts and shallow bytes per node type and name (a constructor, for objects). */
export type HeapCounts = Map<string, { count: number; bytes: number }>;

/** The numbers of a JSON array that opens right after `key` (`"nodes":[`), read without parsing the file as a whole. */
function numbersAfter(text: Buffer, key: string): number[] {
  const at = text.indexOf(key);
  if (at < 0) throw new Error(`no ${key} in the snapshot`);
  const out: number[] = [];
  let value = 0;
  let inNumber = false;
  for (let i = at + key.length; i < text.length; i++) {
    const c = text[i]!;
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      inNumber = true;
    } else {
      if (inNumber) out.push(value);
      value = 0;
      inNumber = false;
      if (c === 93) break; // ]
    }
  }
  return out;
}

/** The strings table, each JSON string parsed on its own (the whole file may be longer than a string can be). */
function stringsOf(text: Buffer): string[] {
  const key = '"strings":[';
  let i = text.lastIndexOf(key) + key.length;
  const out: string[] = [];
  while (i < text.length) {
    const c = text[i]!;
    if (c === 93) break;
    if (c !== 34) {
      i++;
      continue;
    }
    let j = i + 1;
    while (text[j] !== 34) j += text[j] === 92 ? 2 : 1;
    out.push(JSON.parse(text.subarray(i, j + 1).toString("utf8")) as string);
    i = j + 1;
  }
  return out;
}

export function heapCounts(path: string): HeapCounts {
  const text = readFileSync(path);
  const metaEnd = text.indexOf('"nodes":[');
  const meta = JSON.parse(
    `${text.subarray(text.indexOf("{"), metaEnd).toString().replace(/,\s*$/, "")}}`,
  ) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  };
  const fields = meta.snapshot.meta.node_fields;
  const types = meta.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const nodes = numbersAfter(text, '"nodes":[');
  const strings = stringsOf(text);
  const counts: HeapCounts = new Map();
  for (let n = 0; n < nodes.length; n += width) {
    const type = types[nodes[n + typeAt]!]!;
    const name = type === "object" || type === "closure" ? strings[nodes[n + nameAt]!]! : `(${type})`;
    const key = `${type}:${name.slice(0, 80)}`;
    const entry = counts.get(key) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += nodes[n + sizeAt]!;
    counts.set(key, entry);
  }
  return counts;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [beforePath, afterPath] = process.argv.slice(2);
  if (!beforePath || !afterPath)
    throw new Error("usage: heap-diff.ts before.heapsnapshot after.heapsnapshot");
  const before = heapCounts(beforePath);
  const after = heapCounts(afterPath);
  const rows = [...after].map(([key, a]) => {
    const b = before.get(key) ?? { count: 0, bytes: 0 };
    return { key, count: a.count - b.count, bytes: a.bytes - b.bytes, total: a.bytes };
  });
  rows.sort((x, y) => y.bytes - x.bytes);
  console.log("grew by (bytes, objects), then the total now, per type:name");
  for (const row of rows.slice(0, 40))
    console.log(
      `${(row.bytes / 1024 / 1024).toFixed(1).padStart(8)} MB ${String(row.count).padStart(9)}  ${(row.total / 1024 / 1024).toFixed(1).padStart(8)} MB  ${row.key}`,
    );
}
