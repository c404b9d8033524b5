import { Icon } from './Icon.js';

/**
 * The grip of a row that can be dragged among its siblings, by mouse, pen or finger (pointer
 * events; the grip takes no touch scrolling, so a finger on it drags rather than scrolls). The
 * row is the nearest element with `data-reorder`; its siblings are the elements beside it with
 * the same value. While dragged the row follows the pointer and the place it would land is
 * marked; released on another place, `onDrop(from, to)` gets the two positions among the
 * siblings. The grip is for pointers only: keyboards reorder by the row's own commands.
 */
export function DragHandle({ title, onDrop }: { title: string; onDrop(from: number, to: number): void }) {
  return (
    <span class="drag-handle" aria-hidden="true" title={title} onPointerDown={(e) => dragRow(e, onDrop)}>
      <Icon name="grip-vertical" />
    </span>
  );
}

function dragRow(down: PointerEvent, onDrop: (from: number, to: number) => void) {
  if (down.pointerType === 'mouse' && down.button !== 0) return;
  const handle = down.currentTarget as HTMLElement;
  const row = handle.closest<HTMLElement>('[data-reorder]');
  if (!row?.parentElement) return;
  down.preventDefault();
  const rows = [...row.parentElement.children].filter(
    (e): e is HTMLElement => e instanceof HTMLElement && e.dataset.reorder === row.dataset.reorder,
  );
  const from = rows.indexOf(row);
  const boxes = rows.map((r) => r.getBoundingClientRect());
  const startY = down.clientY;
  const startScroll = window.scrollY;
  let to = from;
  try {
    handle.setPointerCapture(down.pointerId);
  } catch {
    // A pointer the browser no longer tracks: the window's listeners below still follow it.
  }
  row.classList.add('dragging');
  const mark = () =>
    rows.forEach((r, i) => {
      r.classList.toggle('drop-before', i === to && to < from);
      r.classList.toggle('drop-after', i === to && to > from);
    });
  const move = (e: PointerEvent) => {
    if (e.pointerId !== down.pointerId) return;
    e.preventDefault();
    const dy = e.clientY - startY + (window.scrollY - startScroll);
    row.style.transform = `translateY(${dy}px)`;
    const middle = boxes[from]!.top + boxes[from]!.height / 2 + dy;
    const over = boxes.findIndex((b) => middle < b.bottom);
    to = over < 0 ? rows.length - 1 : over;
    mark();
  };
  const end = (e: PointerEvent) => {
    if (e.pointerId !== down.pointerId) return;
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', end);
    window.removeEventListener('pointercancel', end);
    row.classList.remove('dragging');
    row.style.transform = '';
    to = e.type === 'pointerup' ? to : from;
    const landed = to;
    to = from;
    mark();
    if (landed !== from) onDrop(from, landed);
  };
  window.addEventListener('pointermove', move, { passive: false });
  window.addEventListener('pointerup', end);
  window.addEventListener('pointercancel', end);
}
