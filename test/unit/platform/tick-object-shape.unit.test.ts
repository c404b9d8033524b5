import { createHook } from 'node:async_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { keepTickObjectShape, keptTickObject } from '#platform/http/tick-object-shape.js';

v8.setFlagsFromString('--allow-natives-syntax');
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
v8.setFlagsFromString('--no-expose-gc');
// V8's own check of two objects' hidden classes (maps).
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** The tick object of one nextTick, caught with a hook enabled for that call only. */
function nextTickObject(): object {
  let caught: object | undefined;
  const hook = createHook({
    init(_id, type, _trigger, resource) {
      if (type === 'TickObject') caught ??= resource;
    },
  }).enable();
  process.nextTick(() => {});
  hook.disable();
  return caught!;
}

describe('keepTickObjectShape: one nextTick tick object kept for the life of the process', () => {
  it('keeps a tick object, once, and leaves no hook behind', () => {
    keepTickObjectShape();
    const kept = keptTickObject();
    expect(kept).not.toBeNull();
    expect(typeof (kept as { callback?: unknown }).callback).toBe('function');
    keepTickObjectShape();
    expect(keptTickObject()).toBe(kept);
    process.nextTick(() => {});
    expect(keptTickObject()).toBe(kept);
  });

  it('stays alive through full garbage collections while idle, and later tick objects share its map', async () => {
    keepTickObjectShape();
    // Only a weak reference here: what keeps it alive must be the module.
    const ref = new WeakRef(keptTickObject()!);
    for (let round = 0; round < 2; round++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      for (let i = 0; i < 3; i++) gc();
    }
    const kept = ref.deref();
    expect(kept).toBeDefined();
    expect(haveSameMap(kept!, nextTickObject())).toBe(true);
  });
});
