// Transfer progress: a bar with bytes, rate and time left, redrawn in place on
// a terminal, or a line every few seconds in a log.
export function progressPrinter(label: string, total: number, out: NodeJS.WriteStream = process.stderr) {
  const start = Date.now();
  let lastLine = 0;
  const fmt = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;
  return {
    update(bytes: number): void {
      const secs = Math.max((Date.now() - start) / 1000, 0.001);
      const rate = bytes / secs;
      const left = rate > 0 ? (total - bytes) / rate : 0;
      const pct = total ? bytes / total : 1;
      const bar = '#'.repeat(Math.round(pct * 24)).padEnd(24, '.');
      const line = `${label} [${bar}] ${bytes}/${total} B  ${(rate / 1000).toFixed(1)} kB/s  ETA ${fmt(left)}`;
      if (out.isTTY) out.write(`\r${line}`);
      else if (Date.now() - lastLine > 2000 || bytes === total) {
        out.write(`${line}\n`);
        lastLine = Date.now();
      }
    },
    done(bytes: number): { seconds: number; bytesPerSecond: number } {
      const seconds = (Date.now() - start) / 1000;
      if (out.isTTY) out.write('\n');
      return { seconds, bytesPerSecond: bytes / seconds };
    },
  };
}
