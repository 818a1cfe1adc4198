// The ten fingers of SPEC §3 as a small drawing of two hands, palms down, as
// the administrator looks at them: slots 0 to 9 run from the left little
// finger to the right little finger. Enrolled fingers are filled. It is a
// radio group: Tab reaches it, the arrow keys move between fingers, and each
// finger says its name and whether it is enrolled.
import { useRef } from 'react';
import { i18n } from '@lingui/core';

/** Message ids of the fingers, by slot. */
export const FINGER_NAMES = [
  /*i18n*/ 'user.f0',
  /*i18n*/ 'user.f1',
  /*i18n*/ 'user.f2',
  /*i18n*/ 'user.f3',
  /*i18n*/ 'user.f4',
  /*i18n*/ 'user.f5',
  /*i18n*/ 'user.f6',
  /*i18n*/ 'user.f7',
  /*i18n*/ 'user.f8',
  /*i18n*/ 'user.f9',
];

const W = 12;
/** Left hand, slots 0-4: x, top, height, and a tilt for the thumb. */
const LEFT: [number, number, number, number][] = [
  [14, 40, 30, 0],
  [31, 27, 43, 0],
  [48, 22, 48, 0],
  [65, 28, 42, 0],
  [86, 62, 30, -50],
];
/** The right hand mirrors the left: slot s is slot 9 - s drawn the other way. */
const SHAPES = [...LEFT, ...LEFT.map(([x, y, h, a]) => [200 - x - W, y, h, -a] as const).reverse()];

export function Hands({ enrolled, picked, onPick }: { enrolled: number; picked: number; onPick: (slot: number) => void }) {
  const refs = useRef<(SVGRectElement | null)[]>([]);
  const move = (slot: number) => {
    const s = (slot + 10) % 10;
    onPick(s);
    refs.current[s]?.focus();
  };
  return (
    <svg className="hands" viewBox="0 0 200 100" role="radiogroup" aria-label={i18n._('user.fingers')}>
      <path className="palm" d="M12 70h78v26H12zM110 70h78v26h-78z" aria-hidden="true" />
      {SHAPES.map(([x, y, h, a], s) => {
        const on = (enrolled >> s) & 1;
        return (
          <rect
            key={s}
            // tabindex set as an attribute: on SVG elements React and Preact pass tabIndex through differently.
            ref={(el) => {
              refs.current[s] = el;
              el?.setAttribute('tabindex', picked === s ? '0' : '-1');
            }}
            x={x}
            y={y}
            width={W}
            height={h}
            rx={6}
            transform={a ? `rotate(${a} ${x + W / 2} ${y + h})` : undefined}
            className={`finger${on ? ' on' : ''}`}
            role="radio"
            aria-checked={picked === s}
            aria-label={`${i18n._(FINGER_NAMES[s])}${on ? `, ${i18n._('user.enrolledOne')}` : ''}`}
            onClick={() => move(s)}
            onKeyDown={(e) => {
              const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
              if (step) {
                e.preventDefault();
                move(s + step);
              }
            }}
          />
        );
      })}
    </svg>
  );
}
