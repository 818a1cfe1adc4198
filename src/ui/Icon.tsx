// Inline SVG icons (no icon font): simple strokes drawn for this console.
const PATHS = {
  menu: 'M3 6h18M3 12h18M3 18h18',
  user: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21c0-4 4-6 8-6s8 2 8 6',
  network: 'M12 3v6M5 21v-6h14v6M12 9v6M3 21h4M17 21h4M9 3h6v6H9z',
  settings: 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM12 2v3M12 19v3M2 12h3M19 12h3M5 5l2 2M17 17l2 2M5 19l2-2M17 7l2-2',
  lock: 'M6 11h12v10H6zM8 11V7a4 4 0 0 1 8 0v4',
  tools: 'M14 6a4 4 0 0 0 5 5l-9 9-3-3 9-9a4 4 0 0 1-2-2zM4 4l4 4',
  info: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM12 11v6M12 7v1',
  close: 'M6 6l12 12M18 6L6 18',
  plus: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM12 7v10M7 12h10',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 20 }: { name: IconName; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false" className="icon">
      <path d={PATHS[name]} />
    </svg>
  );
}
