// An app's queued audio as bytes in fixed blocks: copied in, so a flood of tiny payloads costs no object each.

/** Bytes per block: a stream's audio is held in these, the last one filled as audio arrives. */
export const audioBlockBytes = 16 * 1024;

/**
 * Bytes in arrival order. Each payload is copied into the newest block, so what a stream holds is its bytes
 * (and at most two part-filled blocks), however small the payloads were: a `Buffer` kept per payload costs
 * an object each and may pin the 8 KiB pool slab it was cut from.
 */
export interface ByteQueue {
  blocks: Uint8Array[];
  /** Read so far in the first block. */
  head: number;
  /** Filled so far in the last block. */
  tail: number;
  /** Bytes queued. */
  length: number;
}

export const newByteQueue = (): ByteQueue => ({ blocks: [], head: 0, tail: 0, length: 0 });

/** Forgets every byte (and lets the blocks go). */
export function clearBytes(q: ByteQueue): void {
  q.blocks = [];
  q.head = 0;
  q.tail = 0;
  q.length = 0;
}

export function pushBytes(q: ByteQueue, bytes: Uint8Array): void {
  let at = 0;
  while (at < bytes.length) {
    let last = q.blocks.at(-1);
    if (!last || q.tail === last.length) {
      last = new Uint8Array(audioBlockBytes);
      q.blocks.push(last);
      q.tail = 0;
    }
    const n = Math.min(bytes.length - at, last.length - q.tail);
    last.set(bytes.subarray(at, at + n), q.tail);
    q.tail += n;
    at += n;
  }
  q.length += bytes.length;
}

/** Takes up to `count` bytes off the front. */
export function takeBytes(q: ByteQueue, count: number): Uint8Array {
  const out = new Uint8Array(Math.min(count, q.length));
  let filled = 0;
  while (filled < out.length) {
    const first = q.blocks[0]!;
    const end = q.blocks.length === 1 ? q.tail : first.length;
    const n = Math.min(out.length - filled, end - q.head);
    out.set(first.subarray(q.head, q.head + n), filled);
    filled += n;
    q.head += n;
    if (q.head === end) {
      q.blocks.shift();
      q.head = 0;
      if (q.blocks.length === 0) q.tail = 0;
    }
  }
  q.length -= filled;
  return out;
}

/** Drops up to `count` of the newest bytes; how many were dropped. */
export function dropNewestBytes(q: ByteQueue, count: number): number {
  let left = Math.min(count, q.length);
  const dropped = left;
  while (left > 0) {
    const start = q.blocks.length === 1 ? q.head : 0;
    const n = Math.min(left, q.tail - start);
    q.tail -= n;
    left -= n;
    if (q.tail === start) {
      q.blocks.pop();
      if (q.blocks.length === 0) q.head = 0;
      q.tail = q.blocks.at(-1)?.length ?? 0;
    }
  }
  q.length -= dropped;
  return dropped;
}
