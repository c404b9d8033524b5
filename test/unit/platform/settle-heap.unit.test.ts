/**
 * settleHeap (platform/process/settle-heap.ts) gives back the young generation that a start grew,
 * and keeps what is alive.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { settleHeap } from '#platform/process/settle-heap.js';

const MB = 2 ** 20;
const newSpaceSize = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size;

describe('settleHeap', () => {
  it('shrinks a young generation grown by long-lived objects, as a start grows it', async () => {
    // Objects that survive their first collections, as loaded modules do: V8 grows the young
    // generation for them and keeps it grown.
    const kept: Array<{ i: number; text: string }> = [];
    for (let i = 0; i < 400_000; i++) kept.push({ i, text: `item ${i}` });
    expect(newSpaceSize()).toBeGreaterThan(8 * MB);

    await settleHeap();

    expect(newSpaceSize()).toBeLessThanOrEqual(2 * MB);
    expect(kept).toHaveLength(400_000);
    expect(kept[399_999]).toEqual({ i: 399_999, text: 'item 399999' });
  });
});
