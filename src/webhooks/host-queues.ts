// Deliveries waiting to go, queued per receiving host and taken in turns, so a slow host delays only itself.

/** A FIFO with O(1) take, so a burst of thousands of callbacks does not shift arrays. */
export class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;
  get length() {
    return this.items.length - this.head;
  }
  push(item: T) {
    this.items.push(item);
  }
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
  clear() {
    this.items = [];
    this.head = 0;
  }
}

/** The host (`host:port`) a delivery goes to; one shared key for URLs that do not parse (they fail at once). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}

interface HostLane<T> {
  waiting: Fifo<T>;
  inFlight: number;
  /** True while the host is in the turn order (it has waiting items and a free slot). */
  inTurn: boolean;
}

export interface HostQueues<T> {
  /** Items waiting, over all hosts. */
  readonly size: number;
  push(item: T): void;
  /** The next item of the next host whose turn it is and which has a free slot; counts it as in flight. */
  take(): T | undefined;
  /** An item taken earlier is finished: its host's slot is free again. */
  done(item: T): void;
  /** Drops every waiting item; items in flight keep their slots until done. */
  clear(): void;
}

/**
 * Round robin over hosts: each `take` serves the host after the last one served, and a host never has more
 * than `perHost` items in flight. Hosts with nothing waiting and nothing in flight are forgotten, so the map
 * holds only hosts with work.
 */
export function createHostQueues<T>(keyOf: (item: T) => string, perHost: number): HostQueues<T> {
  const lanes = new Map<string, HostLane<T>>();
  const turns = new Fifo<string>();
  let size = 0;

  const offerTurn = (key: string, lane: HostLane<T>) => {
    if (lane.inTurn || lane.waiting.length === 0 || lane.inFlight >= perHost) return;
    lane.inTurn = true;
    turns.push(key);
  };
  const forgetIfIdle = (key: string, lane: HostLane<T>) => {
    if (lane.waiting.length === 0 && lane.inFlight === 0 && !lane.inTurn) lanes.delete(key);
  };

  return {
    get size() {
      return size;
    },
    push(item) {
      const key = keyOf(item);
      let lane = lanes.get(key);
      if (!lane) {
        lane = { waiting: new Fifo<T>(), inFlight: 0, inTurn: false };
        lanes.set(key, lane);
      }
      lane.waiting.push(item);
      size++;
      offerTurn(key, lane);
    },
    take() {
      for (;;) {
        const key = turns.shift();
        if (key === undefined) return undefined;
        const lane = lanes.get(key);
        if (!lane) continue;
        lane.inTurn = false;
        const item = lane.waiting.shift();
        if (item === undefined) {
          forgetIfIdle(key, lane);
          continue;
        }
        size--;
        lane.inFlight++;
        offerTurn(key, lane);
        return item;
      }
    },
    done(item) {
      const key = keyOf(item);
      const lane = lanes.get(key);
      if (!lane) return;
      lane.inFlight = Math.max(0, lane.inFlight - 1);
      offerTurn(key, lane);
      forgetIfIdle(key, lane);
    },
    clear() {
      turns.clear();
      for (const [key, lane] of lanes) {
        lane.waiting.clear();
        lane.inTurn = false;
        forgetIfIdle(key, lane);
      }
      size = 0;
    },
  };
}
