import type { ComponentChildren, RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * Whether the element comes near the screen (within 200 px); once true, it stays true. For work
 * below the fold that a phone need not pay for before the page can be used: a world map, a
 * heatmap, the drawn samples of a designer's styles.
 */
export function useNear(place: RefObject<Element | null>): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = place.current;
    if (near || !element) return;
    if (typeof IntersectionObserver === 'undefined') return setNear(true);
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), {
      rootMargin: '200px 0px',
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return near;
}

/**
 * Draws its children once their place comes near the screen, and keeps them from then on. Until
 * then it holds their place at `height`, so nothing below jumps. Only for what a reader or the
 * keyboard cannot miss before it is drawn (pictures, not controls).
 */
export function WhenNear({ height, children }: { height: string; children: ComponentChildren }) {
  const place = useRef<HTMLDivElement>(null);
  const near = useNear(place);
  if (near) return <>{children}</>;
  return <div ref={place} class="when-near" style={{ minHeight: height }} />;
}
