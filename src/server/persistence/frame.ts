// Record framing for the change journal: length and CRC-32 before each payload, so a torn or damaged record shows.

/** Bytes before each payload: u32 payload length, u32 CRC-32 of the payload (both big-endian). */
export const frameHeaderBytes = 8;

const crcTable = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3, as zip and PNG use). */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export function encodeFrame(payload: string): Buffer {
  const body = Buffer.from(payload, "utf8");
  const frame = Buffer.allocUnsafe(frameHeaderBytes + body.length);
  frame.writeUInt32BE(body.length, 0);
  frame.writeUInt32BE(crc32(body), 4);
  body.copy(frame, frameHeaderBytes);
  return frame;
}

export type FrameScan =
  | { kind: "record"; payload: string; offset: number; end: number }
  /** The file ends inside this frame, or its checksum fails and nothing follows: a write cut short. */
  | { kind: "torn"; offset: number; reason: string }
  /** A damaged frame with more data after it: not a crash artefact, so replay must stop and say so. */
  | { kind: "corrupt"; offset: number; reason: string };

/** Reads the frames of `data` in order; the last item, if any, may be torn or corrupt. */
export function* scanFrames(data: Buffer): Generator<FrameScan> {
  let offset = 0;
  while (offset < data.length) {
    const remaining = data.length - offset;
    if (remaining < frameHeaderBytes) {
      yield { kind: "torn", offset, reason: `${remaining} bytes of a record header at the end` };
      return;
    }
    const length = data.readUInt32BE(offset);
    const expected = data.readUInt32BE(offset + 4);
    const end = offset + frameHeaderBytes + length;
    if (end > data.length) {
      yield {
        kind: "torn",
        offset,
        reason: `a record of ${length} bytes with only ${remaining - frameHeaderBytes} written`,
      };
      return;
    }
    const body = data.subarray(offset + frameHeaderBytes, end);
    if (crc32(body) !== expected) {
      if (end === data.length) {
        yield { kind: "torn", offset, reason: "the last record fails its checksum" };
      } else {
        yield {
          kind: "corrupt",
          offset,
          reason: `the record at byte ${offset} fails its checksum and ${data.length - end} bytes follow it`,
        };
      }
      return;
    }
    yield { kind: "record", payload: body.toString("utf8"), offset, end };
    offset = end;
  }
}
