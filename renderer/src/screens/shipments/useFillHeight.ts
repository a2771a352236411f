/**
 * Gives an element the height left below it in the window, so a long list scrolls inside the
 * screen (the top bar, tabs and filters stay put) at any window size, banners or not.
 */
import { useLayoutEffect, useState, type RefObject } from 'react';

export function useFillHeight(ref: RefObject<HTMLElement | null>, bottomGap = 20): number | undefined {
  const [height, setHeight] = useState<number>();
  useLayoutEffect(() => {
    const measure = () => {
      const el = ref.current;
      // Document position, not viewport position: a scrolled page must not shrink the list.
      if (el)
        setHeight(
          Math.max(240, Math.floor(window.innerHeight - (el.getBoundingClientRect().top + window.scrollY) - bottomGap)),
        );
    };
    measure();
    window.addEventListener('resize', measure);
    const ro = new ResizeObserver(measure);
    // The screen's own bars and the app's banners (which come and go above it) move the list.
    if (ref.current?.parentElement) ro.observe(ref.current.parentElement);
    ro.observe(document.body);
    return () => {
      window.removeEventListener('resize', measure);
      ro.disconnect();
    };
  }, [ref, bottomGap]);
  return height;
}
