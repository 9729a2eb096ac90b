import { describe, expect, it } from 'vitest';
import { flatMemory, GROWTH_BYTES } from '../../../src/core/memory.js';

const MiB = 1024 * 1024;

describe('flatMemory (docs/architecture.md "Runtime and memory")', () => {
  it('collects only once the heap grew by GROWTH_BYTES, or half the heap after the last collection when more', () => {
    let used = 10 * MiB;
    const memory = flatMemory({ holdYoungGeneration: false, heapUsed: () => used });
    used += GROWTH_BYTES - 1;
    expect(memory.collectIfGrown()).toBe(false);
    used += 1;
    expect(memory.collectIfGrown()).toBe(true);
    // Counted from what the collection left (here: as much as before it, 34 MiB).
    used += GROWTH_BYTES - 1;
    expect(memory.collectIfGrown()).toBe(false);
    used += 1;
    expect(memory.collectIfGrown()).toBe(true);
    expect(memory.collections).toBe(2);
    // 300 MiB in use: the next collection waits for 150 MiB more, not 24.
    used = 300 * MiB;
    const big = flatMemory({ holdYoungGeneration: false, heapUsed: () => used });
    used += 150 * MiB - 1;
    expect(big.collectIfGrown()).toBe(false);
    used += 1;
    expect(big.collectIfGrown()).toBe(true);
    expect(big.collections).toBe(1);
  });

  it("frees the garbage a unit of work left (V8's own full collection, made available at run time)", () => {
    const heap = () => process.memoryUsage().heapUsed;
    const memory = flatMemory();
    // 48 MiB of doubles, unreachable once the unit ends: V8 would keep it until its next full collection.
    let unit: number[] | undefined = new Array<number>(6_000_000).fill(1.5);
    expect(unit.length).toBe(6_000_000);
    unit = undefined;
    const before = heap();
    expect(memory.collectIfGrown()).toBe(true);
    expect(heap()).toBeLessThan(before - 40 * MiB);
    expect(memory.collections).toBe(1);
    // Nothing new: no second collection.
    expect(memory.collectIfGrown()).toBe(false);
  });
});
